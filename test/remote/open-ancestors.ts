/**
 * The remote test users must run this checkout's `bin/thclaws`: every folder above it (and above the real place
 * of its node_modules) must let others in (`o+x`). CI's clone may sit under /root, a scratch worktree under a
 * 0700 temp dir. Folders that lack it get it while any fixture of any test process needs it, and their exact
 * modes come back when the last one is done: test files run in parallel (vitest workers, other helpers' runs),
 * and one restoring a mode while another's remote host still runs from the checkout would break that one.
 * The holders and the original modes are kept in a root-only file, under a lock.
 */
import fs from 'node:fs';
import path from 'node:path';

const STATE = '/tmp/thcr-ancestors.json';
const LOCK = '/tmp/thcr-ancestors.lock';

interface State {
  /** Folder → the mode it had before a fixture added `o+x`. */
  modes: Record<string, number>;
  /** `<pid>:<n>`: a fixture of a live process (one process may hold several). */
  holders: string[];
}

const alive = (holder: string): boolean => {
  try {
    process.kill(Number(holder.split(':')[0]), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function locked<T>(fn: () => T): T {
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder killed inside the lock: its lock is stale after 10 s (each turn inside takes milliseconds).
      const st = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 10_000) fs.rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > end) throw new Error(`${LOCK} held for 30 s`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

const read = (): State => {
  try {
    return JSON.parse(fs.readFileSync(STATE, 'utf8')) as State;
  } catch {
    return { modes: {}, holders: [] };
  }
};
const write = (s: State) => fs.writeFileSync(STATE, JSON.stringify(s), { mode: 0o600 });

/** Gives `o+x` to the folders above `starts` that lack it, for this process until `release()`. */
export function openAncestors(starts: string[]): () => void {
  const me = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  locked(() => {
    const s = read();
    s.holders = [...s.holders.filter(alive), me];
    for (const start of starts) {
      for (let d = start; ; d = path.dirname(d)) {
        const mode = fs.statSync(d).mode & 0o7777;
        if (!(mode & 0o001)) {
          s.modes[d] ??= mode;
          fs.chmodSync(d, mode | 0o001);
        }
        if (d === path.dirname(d)) break;
      }
    }
    write(s);
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    locked(() => {
      const s = read();
      s.holders = s.holders.filter((h) => h !== me && alive(h));
      if (s.holders.length) return write(s);
      // The last one out (a holder that died without release counts as out): every folder back as it was.
      for (const [d, mode] of Object.entries(s.modes).sort(([a], [b]) => b.length - a.length)) {
        try {
          fs.chmodSync(d, mode);
        } catch {
          // removed since (a scratch worktree's parent)
        }
      }
      fs.rmSync(STATE, { force: true });
    });
  };
}
