/** The set-up most agent tests share: a fresh temp workspace and a fresh fake Messages API per test. */
import { afterEach, beforeAll, beforeEach } from 'vitest';
import type { LoopOptions } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { AnthropicProvider } from '../../src/core/agent/providers/anthropic.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import { FakeAnthropic } from './fake-anthropic.js';
import { ensureBuilt, tempDir } from './helpers.js';

export interface FakeApiWorkspace {
  dir: string;
  fake: FakeAnthropic;
}

/**
 * Registers the hooks: `cli` builds the CLI once for the file; `each` receives the new workspace before every
 * test (tests keep their own `let` bindings, so their bodies stay plain). Closed and removed after each test.
 */
export function useFakeApiWorkspace(opts: { cli?: boolean; each: (w: FakeApiWorkspace) => unknown }): void {
  let cleanup: (() => void) | undefined;
  let fake: FakeAnthropic | undefined;
  if (opts.cli) beforeAll(ensureBuilt, 120_000);
  beforeEach(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    fake = await new FakeAnthropic().start();
    await opts.each({ dir: t.dir, fake });
  });
  afterEach(async () => {
    await fake?.close();
    cleanup?.();
  });
}

/** A solo agent loop on the real SDK against `fake`, in `root`, auto-allowing tools; tests override the rest. */
export function fakeLoopOptions(fake: FakeAnthropic, root: string): Omit<LoopOptions, 'messages'> {
  return {
    provider: new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } }),
    model: 'claude-sonnet-5-5',
    system: 'S',
    tools: builtinTools(),
    maxIterations: 10,
    maxTokens: 1000,
    toolOutputMaxChars: 10_000,
    context: { cwd: root, projectRoot: root, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
    signal: new AbortController().signal,
  };
}
