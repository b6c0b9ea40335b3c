/** The model capability table (models.json): context window, output limit, prices, thinking mode, aliases. */
import table from './models.json' with { type: 'json' };

export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelInfo {
  contextWindow: number;
  maxOutput: number;
  price: Price;
  /** `adaptive`: the model decides how much to think; a manual budget is refused. `extended`: budgets allowed (we send none). */
  thinking: 'adaptive' | 'extended';
  /** False when the model refuses non-default temperature/top_p/top_k; we never send them either way. */
  samplingParams: boolean;
}

const MODELS = table.models as Record<string, ModelInfo>;

export const DEFAULT_MODEL: string = table.default;
export const MODEL_ALIASES: Readonly<Record<string, string>> = table.aliases;

export function knownModels(): string[] {
  return Object.keys(MODELS);
}

/** `sonnet` → the current Sonnet id; anything else unchanged. */
export function resolveModelAlias(model: string): string {
  return MODEL_ALIASES[model] ?? model;
}

/** Exact id, else the id with a date suffix (`claude-haiku-4-5-20251001`) or a `[1m]` tag removed. */
export function modelInfo(model: string): ModelInfo | undefined {
  const exact = MODELS[model];
  if (exact) return exact;
  const base = model.replace(/\[[^\]]*\]$/, '').replace(/-\d{8}$/, '');
  return MODELS[base];
}
