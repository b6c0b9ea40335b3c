import { describe, expect, it } from 'vitest';
import { modelPrice, scriptedLabel, shownModel } from './models-shown';

describe('a model as the page shows it', () => {
  it('names the scripted provider where it runs; a profile model runs its profile', () => {
    expect(shownModel('claude-sonnet-5-5', { scripted: true, demo: true })).toBe('scripted (demo)');
    expect(shownModel('claude-sonnet-5-5', { scripted: true, demo: false })).toBe('scripted');
    expect(shownModel('local/qwen3-coder', { scripted: true, demo: true })).toBe('local/qwen3-coder');
    expect(shownModel('claude-opus-5-5', { scripted: false, demo: false })).toBe('claude-opus-5-5');
    expect(scriptedLabel(true)).toBe('scripted (demo)');
  });

  it('prices from the model table: an alias names its model, the default when none is set, unknown said so', () => {
    expect(modelPrice('haiku')).toBe('claude-haiku-5-5 · $0.1 in / $0.5 out per M tokens');
    expect(modelPrice('claude-opus-5-5')).toBe('claude-opus-5-5 · $4 in / $20 out per M tokens');
    expect(modelPrice(null)).toBe('claude-sonnet-5-5 · $2 in / $10 out per M tokens');
    expect(modelPrice('  ')).toBe('claude-sonnet-5-5 · $2 in / $10 out per M tokens');
    expect(modelPrice('local/qwen3-coder')).toBe('local/qwen3-coder · price unknown');
  });
});
