import { describe, expect, it } from 'vitest';
import { compileOutputSchema, OutputSchemaError, StructuredOutput } from './structured-output.js';

describe('structured output: the schema and the turn it ends', () => {
  it('refuses a schema that is not an object schema or not a schema at all, in one line', () => {
    expect(() => compileOutputSchema({ type: 'array' })).toThrow(/must describe an object/);
    expect(() => compileOutputSchema([])).toThrow(OutputSchemaError);
    expect(() => compileOutputSchema({ type: 'object', properties: { n: { type: 'no-such-type' } } })).toThrow(/not a valid JSON schema/);
    // Draft 2020-12 (what zod 4 emits) compiles too.
    expect(compileOutputSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'number' }] } } })({ p: [1] })).toBe(true);
  });

  it('a valid call ends the turn with the answer; each turn starts afresh', async () => {
    const so = new StructuredOutput({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
    const ctx = {} as never;
    let turn = so.begin();
    expect((await so.tool.run({ ok: 'no' }, ctx)).isError).toBe(true);
    expect(turn.afterTools()).toBeUndefined();
    expect(await so.tool.run({ ok: true }, ctx)).toEqual({ content: 'Structured output provided successfully' });
    expect(turn.afterTools()).toEqual({ done: '{"ok":true}' });
    turn = so.begin();
    expect(so.output).toBeUndefined();
    expect(turn.onEndTurn()).toHaveProperty('nudge');
  });
});
