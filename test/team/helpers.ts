import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { buildSync } from 'esbuild';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER_SRC = path.join(ROOT, 'test/team/worker.ts');
let workerBundle: string | null = null;

/**
 * The worker bundled once per test process and run by plain node: no tsx loader thread in the children
 * (it costs start-up time and background CPU that would pollute the idle-CPU bench).
 */
function workerScript(): string {
  if (workerBundle) return workerBundle;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-worker-'));
  const out = path.join(dir, 'worker.mjs');
  buildSync({
    entryPoints: [WORKER_SRC],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    nodePaths: [path.join(ROOT, 'node_modules')],
    logLevel: 'error',
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  workerBundle = out;
  return out;
}

export function tempDir(prefix = 'thclaws-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Worker {
  child: ChildProcess;
  /** Resolves with the next JSON line the worker prints. */
  nextLine(): Promise<unknown>;
  /** Resolves with every JSON line once the worker exits (rejects on a non-zero exit). */
  done(): Promise<unknown[]>;
  /** What the worker wrote to stderr so far. */
  stderr(): string;
}

/** Starts test/team/worker.ts (bundled) as a real OS process. */
export function startWorker(mode: string, teamDir: string, ...args: string[]): Worker {
  // THCLAWS_WORKER_NODE_ARGS (e.g. --cpu-prof) is for profiling the workers by hand.
  const extra = process.env.THCLAWS_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, workerScript(), mode, teamDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: unknown[] = [];
  const waiters: Array<(v: unknown) => void> = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  createInterface({ input: child.stdout! }).on('line', (l) => {
    const v = JSON.parse(l);
    const w = waiters.shift();
    if (w) w(v);
    else lines.push(v);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    nextLine: () => (lines.length ? Promise.resolve(lines.shift()) : new Promise((r) => waiters.push(r))),
    done: async () => {
      const code = await exited;
      if (code !== 0) throw new Error(`worker ${mode} exited ${code}: ${stderr}`);
      return lines;
    },
  };
}
