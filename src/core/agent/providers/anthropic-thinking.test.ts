import { describe, expect, it } from 'vitest';
import { thinkingParams } from './anthropic.js';

const base = { maxTokens: 32_000, thinkingDisplay: 'summarized' as const };

describe('thinkingParams: the thinking the Messages API is asked for', () => {
  it('a budget goes to a manual-budget model as budget_tokens; an adaptive model takes it as "on"', () => {
    expect(thinkingParams({ ...base, model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budgetTokens: 5000 } })).toEqual({
      thinking: { type: 'enabled', budget_tokens: 5000, display: 'summarized' },
    });
    expect(thinkingParams({ ...base, model: 'claude-opus-4-6', effort: 'high', thinking: { type: 'enabled', budgetTokens: 5000 } })).toEqual({
      thinking: { type: 'adaptive', display: 'summarized' },
      output_config: { effort: 'high' },
    });
  });

  it('a budget is raised to the API minimum and max_tokens grows past it; disabled is sent as such; no ask, no manual thinking', () => {
    expect(thinkingParams({ ...base, maxTokens: 1000, model: 'claude-haiku-4-5', thinking: { type: 'enabled', budgetTokens: 10 } })).toEqual({
      thinking: { type: 'enabled', budget_tokens: 1024, display: 'summarized' },
      max_tokens: 1025,
    });
    expect(thinkingParams({ ...base, model: 'claude-sonnet-5-5', thinking: { type: 'disabled' } })).toEqual({ thinking: { type: 'disabled' } });
    expect(thinkingParams({ ...base, model: 'claude-sonnet-4-5' })).toEqual({});
    expect(thinkingParams({ ...base, model: 'not-in-the-table', thinking: { type: 'enabled', budgetTokens: 5000 } })).toEqual({});
  });
});
