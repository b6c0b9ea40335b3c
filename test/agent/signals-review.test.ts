/**
 * Background shells die with the agent whatever ends it: a closed terminal (SIGHUP) or SIGTERM, in the REPL
 * between turns and in -p mid-turn. A signal's default action skips 'exit' handlers, so this needs handlers.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { BIN, scrubbedEnv } from './helpers.js';

/** Processes with this exact command line (under the OS sandbox `$$` is a pid of another namespace). */
const running = (secs: string) =>
  readdirSync('/proc').filter((d) => {
    try {
      return /^\d+$/.test(d) && readFileSync(`/proc/${d}/cmdline`, 'utf8') === `sleep\0${secs}\0`;
    } catch {
      return false;
    }
  }).map(Number);

/**
 * Polls `cond` until it holds. No clock of its own: the test's timeout is the one deadline (a 20 s one here
 * failed two tests at load 27, the agent's start and first tool call alone took longer); polling stops when
 * the test ends, passed or not.
 */
async function until(cond: () => boolean): Promise<boolean> {
  let over = false;
  onTestFinished(() => void (over = true));
  while (!over) {
    if (cond()) return true;
    await new Promise((f) => setTimeout(f, 100));
  }
  return false;
}

describe('background shells end with the agent on SIGHUP and SIGTERM (real processes)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let secs = '';
  let n = 0;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });
  afterEach(async () => {
    for (const pid of running(secs)) process.kill(pid, 'SIGKILL');
  });

  const cases = [
    { mode: 'repl', sig: 'SIGHUP', code: 129 },
    { mode: 'repl', sig: 'SIGTERM', code: 143 },
    { mode: 'print', sig: 'SIGHUP', code: 130 },
  ] as const;
  for (const c of cases) {
    it(`${c.mode}: ${c.sig} kills the background group (even one ignoring SIGTERM) and exits ${c.code}`, async () => {
      const pidFile = path.join(dir, 'bg.pid');
      secs = `300.${process.pid}${++n}`;
      fake.enqueue(
        { toolUses: [{ name: 'Bash', input: { command: `trap '' TERM; echo $$ > ${pidFile}; sleep ${secs} & sleep ${secs}`, run_in_background: true } }] },
        // In -p the second answer streams slowly, so the signal arrives mid-turn.
        c.mode === 'print' ? { text: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 200 } : { text: 'started' },
      );
      const args = c.mode === 'print' ? ['-p', 'start it', '--accept-all'] : ['--accept-all'];
      const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url }) });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const closed = new Promise<number | null>((f) => child.on('close', (code) => f(code)));
      if (c.mode === 'repl') child.stdin.write('start it\n');
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'))).toBe(true);
      if (c.mode === 'repl') expect(await until(() => out.includes('started'))).toBe(true);
      else expect(await until(() => fake.requests.length === 2)).toBe(true);
      expect(await until(() => running(secs).length === 2)).toBe(true);
      child.kill(c.sig);
      expect(await closed).toBe(c.code);
      expect(await until(() => running(secs).length === 0)).toBe(true);
    });
  }
});
