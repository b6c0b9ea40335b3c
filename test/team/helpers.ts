import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER = path.join(ROOT, 'test/team/worker.ts');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs');

export function tempDir(prefix = 'thclaws-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Worker {
  child: ChildProcess;
  /** Resolves with the next JSON line the worker prints. */
  nextLine(): Promise<unknown>;
  /** Resolves with every JSON line once the worker exits (rejects on a non-zero exit). */
  done(): Promise<unknown[]>;
}

/** Starts test/team/worker.ts as a real OS process. */
export function startWorker(mode: string, teamDir: string, ...args: string[]): Worker {
  // THCLAWS_WORKER_NODE_ARGS (e.g. --cpu-prof) is for profiling the workers by hand.
  const extra = process.env.THCLAWS_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, '--import', TSX, WORKER, mode, teamDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    nextLine: () => (lines.length ? Promise.resolve(lines.shift()) : new Promise((r) => waiters.push(r))),
    done: async () => {
      const code = await exited;
      if (code !== 0) throw new Error(`worker ${mode} exited ${code}: ${stderr}`);
      return lines;
    },
  };
}
