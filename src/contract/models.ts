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
  /** Absent for a provider profile's model without a price: its cost is unknown (`$?`), never guessed low. */
  price?: Price;
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

/** Models of provider profiles by `<profile>/<model>`, set once settings are loaded (provider-profiles.ts). */
let profileModels = new Map<string, Partial<ModelInfo>>();

export function setProfileModels(models: Map<string, Partial<ModelInfo>>): void {
  profileModels = models;
}

/**
 * Exact id, else the id with a date suffix (`claude-haiku-4-5-20251001`) or a `[1m]` tag removed. A
 * `<profile>/<model>` id is looked up in its profile's table only: a missing field stays unknown.
 */
export function modelInfo(model: string): ModelInfo | undefined {
  if (model.includes('/')) {
    const p = profileModels.get(model);
    return p ? ({ thinking: 'extended', samplingParams: true, contextWindow: 0, maxOutput: 0, ...p } as ModelInfo) : undefined;
  }
  const exact = MODELS[model];
  if (exact) return exact;
  const base = model.replace(/\[[^\]]*\]$/, '').replace(/-\d{8}$/, '');
  return MODELS[base];
}
