import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Model } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, MODEL_ALIASES, knownModels, modelInfo, resolveModelAlias } from './models.js';
import { defaultSettings } from '../core/agent/settings.js';

/** The SDK publishes its model list only as the `Model` type; its literal members, read from the declaration. */
function sdkModels(): string[] {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@anthropic-ai/sdk'));
  const dts = readFileSync(path.join(dir, 'resources/messages/messages.d.ts'), 'utf8');
  const line = /export type Model = ([^;]+);/.exec(dts)?.[1] ?? '';
  return [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** Compile-time half of the check: every id in the table is a literal the SDK's `Model` type names. */
type SdkModelId = Model extends infer T ? (T extends string ? (string extends T ? never : T) : never) : never;
const _typed: readonly SdkModelId[] = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'];

describe('model table', () => {
  it('every model in the table is one the SDK knows, and the default is not deprecated', async () => {
    const sdk = sdkModels();
    expect(sdk.length).toBeGreaterThan(10);
    for (const id of knownModels()) expect(sdk, id).toContain(id);
    expect(_typed).toContain(DEFAULT_MODEL);
    const { DEPRECATED_MODELS } = (await import(path.join(path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/sdk')), 'internal/data.js'))) as { DEPRECATED_MODELS: Record<string, string> };
    expect(Object.keys(DEPRECATED_MODELS).length).toBeGreaterThan(0);
    expect(DEPRECATED_MODELS).not.toHaveProperty(DEFAULT_MODEL);
  });

  it('the current Sonnet is the default, with its limits and prices; aliases point at table entries', () => {
    expect(DEFAULT_MODEL).toBe('claude-sonnet-5-5');
    expect(defaultSettings().model).toBe('claude-sonnet-5-5');
    expect(modelInfo('claude-sonnet-5-5')).toMatchObject({ contextWindow: 1_000_000, maxOutput: 128_000, thinking: 'adaptive', samplingParams: false, price: { input: 2, output: 10 } });
    for (const [alias, id] of Object.entries(MODEL_ALIASES)) {
      expect(modelInfo(id), alias).toBeDefined();
      expect(resolveModelAlias(alias)).toBe(id);
    }
    expect(resolveModelAlias('claude-opus-4-6')).toBe('claude-opus-4-6');
    // Every entry is complete: a missing price would make cost_usd null.
    for (const id of knownModels()) {
      const m = modelInfo(id)!;
      expect(Object.values(m.price!).every((p) => p > 0), id).toBe(true);
      expect(m.maxOutput).toBeLessThanOrEqual(m.contextWindow);
    }
  });
});
