import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, onTestFinished } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { bundleForNode } from '../bundle-node.js';
import { FAST_TMP } from '../tmp-dir.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The worker runs bundled by plain node: no tsx loader thread (its start-up and CPU would pollute the idle-CPU bench). */
const workerScript = (): string => bundleForNode('test/team/worker.ts');

/** A fresh temp dir on tmpfs where there is one (test/tmp-dir.ts: the store's fsyncs cost the disk, prove nothing here). */
export function tempDir(prefix = 'thclaws-test-'): string {
  return fs.mkdtempSync(path.join(FAST_TMP, prefix));
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
  // WORKER_NODE_ARGS (e.g. --cpu-prof) is for profiling the workers by hand (test/setup-env.ts drops THCLAWS_*).
  const extra = process.env.WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, workerScript(), mode, teamDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A worker never outlives the test that started it (a timed-out test left eight workers running for good).
  try {
    onTestFinished(() => void child.kill('SIGKILL'));
  } catch {
    // not inside a test (a bench, a beforeAll): the caller ends it
  }
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

/**
 * A test file's team factory: each `newTeam` is a fresh workspace with an initialised store and a team of
 * `members`; `track` adds other temp dirs. All are removed after the file.
 */
export function teamFactory(name: string): { newTeam(members: string[]): Promise<TeamStore>; track(dir: string): string } {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const track = (dir: string) => (dirs.push(dir), dir);
  return {
    track,
    async newTeam(members) {
      const store = TeamStore.forWorkspace(track(tempDir()), {});
      store.init();
      await store.config.create({ name, members: members.map((m) => ({ name: m })) });
      return store;
    },
  };
}
