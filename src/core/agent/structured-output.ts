/**
 * Structured output (`--json-schema`, the Agent SDK's `outputFormat: {type: 'json_schema'}`), as Claude Code
 * does it: a `StructuredOutput` tool whose input schema is the caller's schema. A valid call ends the turn
 * with that input as the answer; an invalid one gets the schema errors back as the tool's error; a turn the
 * model ends without a valid call gets a reminder. After MAX_ATTEMPTS failures the turn fails.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { TurnFinish } from './loop.js';
import type { Tool } from './types.js';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
/** Invalid calls plus reminders a turn may take (Claude Code's number). */
export const MAX_ATTEMPTS = 5;
export const REMINDER = `[structured-output-enforce] You MUST call the ${STRUCTURED_OUTPUT_TOOL} tool to complete this request. Call this tool now.`;

export class OutputSchemaError extends Error {
  override name = 'OutputSchemaError';
}

/** Compiles the caller's schema; throws OutputSchemaError with one line saying what is wrong. */
export function compileOutputSchema(schema: unknown): ValidateFunction {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new OutputSchemaError('the schema must be a JSON object');
  const s = schema as Record<string, unknown>;
  // The answer is a tool call's input, which the Messages API takes only as an object.
  if (s.type !== 'object') throw new OutputSchemaError('the schema must describe an object ("type": "object"): the answer is given as a tool call\'s input');
  const draft2020 = typeof s.$schema === 'string' && s.$schema.includes('2020-12');
  try {
    return (draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true })).compile(s);
  } catch (err) {
    throw new OutputSchemaError(`not a valid JSON schema: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** One turn's structured output: the tool the model calls and the loop's way to end (or fail) the turn. */
export class StructuredOutput {
  private value: { v: unknown } | undefined;
  private attempts = 0;
  private lastError = '';
  readonly tool: Tool<Record<string, unknown>>;

  constructor(
    readonly schema: Record<string, unknown>,
    private readonly validate: ValidateFunction = compileOutputSchema(schema),
  ) {
    this.tool = {
      name: STRUCTURED_OUTPUT_TOOL,
      description: 'Give your final answer as structured output: call this tool once, at the end of your work, with the answer as its input, valid against its schema. Your turn ends with it.',
      inputSchema: z.record(z.string(), z.unknown()),
      inputJsonSchema: schema,
      needsPermission: false,
      run: async (input) => {
        if (this.value) return { content: 'Structured output was already provided', isError: true };
        if (this.validate(input)) {
          this.value = { v: input };
          return { content: 'Structured output provided successfully' };
        }
        this.attempts++;
        const why = (this.validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`).join(', ');
        this.lastError = `Output does not match required schema: ${why}`;
        return { content: this.lastError, isError: true };
      },
    };
  }

  /** The answer of this turn, once given. */
  get output(): { v: unknown } | undefined {
    return this.value;
  }

  /** A new turn: no answer yet, no attempts spent. */
  begin(): TurnFinish {
    this.value = undefined;
    this.attempts = 0;
    this.lastError = '';
    const failed = () => `Failed to provide valid structured output after ${MAX_ATTEMPTS} attempts — last ${STRUCTURED_OUTPUT_TOOL} error: ${this.lastError || 'the tool was not called'}`;
    return {
      afterTools: () => {
        if (this.value) return { done: JSON.stringify(this.value.v) };
        return this.attempts >= MAX_ATTEMPTS ? { failed: failed() } : undefined;
      },
      onEndTurn: () => {
        this.attempts++;
        return this.attempts >= MAX_ATTEMPTS ? { failed: failed() } : { nudge: REMINDER };
      },
    };
  }
}
