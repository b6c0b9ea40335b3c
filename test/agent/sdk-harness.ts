import type { Options, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { BIN, scrubbedEnv } from './helpers.js';

/** The SDK's options that drive `thclaws` in `dir` against the fake Messages API at `fakeUrl`. */
export function sdkOptions(dir: string, fakeUrl: string, onStderr: (s: string) => void, extra: Options = {}): Options {
  return {
    pathToClaudeCodeExecutable: BIN,
    cwd: dir,
    env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fakeUrl }) as Record<string, string>,
    stderr: onStderr,
    ...extra,
  };
}

/** Every message of a query, in order. */
export async function collect(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(m);
  return out;
}
