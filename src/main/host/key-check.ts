/**
 * Whether a model key works, checked with one call that costs nothing: the model list, through the real SDK
 * (the same client and endpoint the agents use). The reply is the provider's refusal in the agents' words.
 */
import type { KeyCheck } from '../../contract/api.js';
import { briefFailure } from '../../core/agent/providers/retry.js';
import { connectionCause } from '../../core/agent/providers/types.js';

export interface KeyCredential {
  apiKey?: string;
  authToken?: string;
}

export async function checkKey(cred: KeyCredential, baseURL: string | undefined, timeoutMs = 15_000): Promise<KeyCheck> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey: cred.apiKey ?? null, authToken: cred.authToken ?? null, baseURL: baseURL ?? null, maxRetries: 0, timeout: timeoutMs });
  try {
    await client.models.list({ limit: 1 });
    return { ok: true, text: 'Anthropic accepted it' };
  } catch (err) {
    const e = err as { status?: unknown; error?: { error?: { type?: unknown; message?: unknown } } };
    const status = typeof e.status === 'number' ? e.status : undefined;
    const why = briefFailure({ ...(status !== undefined ? { status } : {}), base: baseURL ?? 'https://api.anthropic.com', cause: connectionCause(err) });
    const said = status !== undefined && typeof e.error?.error?.message === 'string' ? `: ${e.error.error.message.slice(0, 300)}` : '';
    return { ok: false, text: `${why}${said}` };
  }
}
