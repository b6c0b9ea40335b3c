/** Shared helpers of the agent tests: temp workspaces and running the real CLI with a scrubbed env. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO, 'bin/thclaws');

export function tempDir(prefix = 'thclaws-test-'): { dir: string; cleanup(): void } {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Only what the CLI needs: no ANTHROPIC_* from the developer's shell leaks into a test. */
export function scrubbedEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Without a test to tie it to (a beforeAll), a CLI run is killed after this long. */
const OUTSIDE_TEST_KILL_MS = 120_000;

/**
 * Runs the CLI to its exit. A run never outlives the test that started it: it is killed when that test
 * finishes (passed, failed or timed out), so the test's own timeout is its one deadline. A separate, shorter
 * kill clock here (it was 30 s inside a 60 s test) cut off runs that need about 1.5 s of CPU whenever a
 * loaded machine gave them less than a twentieth of a core, with nothing to say why (`code` null). `timeoutMs`
 * is for a test that asserts the run ends by itself (a hang shows as `code` null).
 */
export function runCli(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    let killAfter = opts.timeoutMs;
    if (killAfter === undefined) {
      try {
        onTestFinished(() => void child.kill('SIGKILL'));
      } catch {
        killAfter = OUTSIDE_TEST_KILL_MS; // not inside a test
      }
    }
    const timer = killAfter === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfter);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

function newestMtime(dir: string): number {
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // Test files are not in the bundle: editing one must not rebuild dist/ under the CLIs other files run.
    if (e.isDirectory()) max = Math.max(max, newestMtime(p));
    else if (!e.name.endsWith('.test.ts')) max = Math.max(max, statSync(p).mtimeMs);
  }
  return max;
}

/** A lock older than this is left over from a killed test run. */
const STALE_LOCK_MS = 120_000;

/**
 * Builds dist/cli.mjs when sources are newer; a mkdir lock keeps parallel test files from racing. The lock
 * lives outside dist/: the build script deletes dist/ first, and a lock inside it vanished mid-build.
 */
export async function ensureBuilt(): Promise<void> {
  const out = path.join(REPO, 'dist/cli.mjs');
  const lockDir = path.join(REPO, 'node_modules/.cache');
  const lock = path.join(lockDir, 'thclaws-test-build.lock');
  mkdirSync(lockDir, { recursive: true });
  for (let i = 0; i < 600; i++) {
    try {
      mkdirSync(lock);
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((f) => setTimeout(f, 100));
      continue;
    }
    try {
      if (!existsSync(out) || statSync(out).mtimeMs < newestMtime(path.join(REPO, 'src'))) {
        execFileSync(process.execPath, [path.join(REPO, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
  throw new Error('timed out waiting for the CLI build lock');
}
