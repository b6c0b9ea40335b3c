import fs from 'node:fs';
import path from 'node:path';

export interface TreeWatchOptions {
  /** A path not to report, nor to descend into when it is a directory. */
  ignored(p: string): boolean;
  /** A path below a watched tree (or a watched file) was created, changed or removed. */
  onPath(p: string): void;
  /** Directory levels below a tree's root that are watched. */
  maxDepth?: number;
}

/**
 * Directory trees watched the way the store's team feed (`watchTeam`) watches the team directory: one
 * fs.watch per directory, a directory that appears watched at once with its files reported (written before its
 * watch was attached), one that goes dropped. An event costs a path join and, for a name, one lstat — not
 * chokidar's re-read and lstat of the whole directory on every event.
 */
export class TreeWatch {
  /** id = inode + birth time: a directory made again often gets the inode number of the removed one. */
  private readonly watched = new Map<string, { w: fs.FSWatcher; id: string }>();
  private closed = false;

  constructor(private readonly opts: TreeWatchOptions) {}

  /** Watches `dir` and everything below it; nothing when it does not exist yet (add it again once it does). */
  addTree(dir: string): void {
    this.attach(dir, 0, false);
  }

  /** Watches the entries `names` of `dir` alone: files git replaces by a rename (HEAD, packed-refs). */
  addFiles(dir: string, names: readonly string[]): void {
    if (this.watched.has(dir)) return;
    this.watch(dir, (name) => {
      if (names.includes(name)) this.opts.onPath(path.join(dir, name));
    });
  }

  close(): void {
    this.closed = true;
    for (const { w } of this.watched.values()) w.close();
    this.watched.clear();
  }

  private attach(dir: string, depth: number, announce: boolean): void {
    if (this.closed || depth > (this.opts.maxDepth ?? 30) || this.opts.ignored(dir)) return;
    const id = dirId(dir);
    if (id === null) return this.drop(dir);
    if (this.watched.get(dir)?.id === id) return;
    this.drop(dir);
    if (!this.watch(dir, (name) => this.onEntry(dir, name, depth), id)) return;
    for (const e of safeReaddir(dir)) {
      const full = path.join(dir, e.name);
      if (this.opts.ignored(full)) continue;
      if (e.isDirectory()) this.attach(full, depth + 1, announce);
      else if (announce) this.opts.onPath(full);
    }
  }

  private onEntry(dir: string, name: string, depth: number): void {
    const full = path.join(dir, name);
    if (this.opts.ignored(full)) return;
    this.opts.onPath(full);
    if (dirId(full) !== null) this.attach(full, depth + 1, true);
    else this.drop(full);
  }

  private watch(dir: string, onName: (name: string) => void, id = ''): boolean {
    if (this.closed) return false;
    try {
      const w = fs.watch(dir, { persistent: false }, (_type, name) => name && onName(name.toString()));
      w.on('error', () => {
        w.close();
        if (this.watched.get(dir)?.w === w) this.watched.delete(dir);
      });
      this.watched.set(dir, { w, id });
      return true;
    } catch {
      return false; // not there (yet), or gone meanwhile: its parent's event brings it back
    }
  }

  /** Stops watching `dir` and everything below it. */
  private drop(dir: string): void {
    const below = dir + path.sep;
    for (const [d, { w }] of this.watched) {
      if (d !== dir && !d.startsWith(below)) continue;
      w.close();
      this.watched.delete(d);
    }
  }
}

/** A real directory's identity (a symlink is not followed); null for anything else or nothing. */
function dirId(p: string): string | null {
  try {
    const st = fs.lstatSync(p);
    return st.isDirectory() ? `${st.ino}:${st.birthtimeMs}` : null;
  } catch {
    return null;
  }
}

function safeReaddir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
