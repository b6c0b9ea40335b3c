/**
 * Three-way merges of single files, many at once, by git itself: for each (base, ours, theirs) blob triple a
 * one-file base commit and two one-file child commits are written (as loose objects, no process needed) into
 * a scratch repository that borrows the project's objects (alternates), and one `git merge-tree --stdin`
 * merges every pair. So a write to one file costs the merges of that file, not of every file two teammates share, and
 * nothing is written into the project's own repository. Results are cached on the blob ids.
 *
 * Only plain modifications go through here (a file present in the base and on both sides, regular modes):
 * there git's result for a path depends on those three blobs alone. Adds, deletes, renames and
 * `.gitattributes` merge drivers need the whole-commit merge.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { parseMergeTreeBatch } from './diff-parse.js';
import { gitText, runGit } from '../git.js';

export interface BlobSide {
  mode: string;
  blob: string;
}

export interface FileTriple {
  /** The file's name (its extension can matter to git); only the base name is used. */
  name: string;
  base: BlobSide;
  ours: BlobSide;
  theirs: BlobSide;
}

const REGULAR = new Set(['100644', '100755']);
export const isRegular = (s: BlobSide): boolean => REGULAR.has(s.mode) && /^[0-9a-f]{40,64}$/.test(s.blob) && !/^0+$/.test(s.blob);

/** Scratch repositories are replaced after this many runs (their loose objects pile up). */
const RUNS_PER_SCRATCH = 200;
const MAX_CACHED = 20_000;

export class FileMerges {
  private scratch: Promise<string | null> | null = null;
  private scratchDir: string | null = null;
  private runs = 0;
  private readonly cache = new Map<string, boolean>();

  constructor(private readonly root: string) {}

  private static key(t: FileTriple): string {
    const [a, b] = [`${t.ours.mode}:${t.ours.blob}`, `${t.theirs.mode}:${t.theirs.blob}`].sort();
    return `${t.name.slice(t.name.lastIndexOf('.'))}|${t.base.mode}:${t.base.blob}|${a}|${b}`;
  }

  /** Makes the scratch repository ahead of the first merge (off the path of the first warning). */
  prepare(): Promise<unknown> {
    return this.scratchRepo().catch(() => null);
  }

  private scratchRepo(): Promise<string | null> {
    if (this.scratch && this.runs < RUNS_PER_SCRATCH) return this.scratch;
    this.dispose();
    this.scratch = (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `thclaws-merges-${process.pid}-`));
      this.scratchDir = dir;
      const [objects, format] = (await gitText(this.root, ['rev-parse', '--git-path', 'objects', '--show-object-format'])).trim().split('\n');
      // Objects are written here by hand (below), in git's sha1 loose format only.
      if (format !== 'sha1') return null;
      await gitText(dir, ['init', '-q', '--bare', dir]);
      fs.writeFileSync(path.join(dir, 'objects', 'info', 'alternates'), `${path.resolve(this.root, objects!)}\n`);
      this.runs = 0;
      return dir;
    })();
    return this.scratch;
  }

  /** For each triple, whether git's merge of it conflicts; null when git could not run them. */
  async conflicts(triples: FileTriple[]): Promise<boolean[] | null> {
    const todo = [...new Map(triples.filter((t) => !this.cache.has(FileMerges.key(t))).map((t) => [FileMerges.key(t), t])).values()];
    if (todo.length) {
      const got = await this.run(todo);
      if (!got) return null;
      if (this.cache.size + todo.length > MAX_CACHED) this.cache.clear();
      todo.forEach((t, i) => this.cache.set(FileMerges.key(t), got[i]!));
    }
    return triples.map((t) => this.cache.get(FileMerges.key(t))!);
  }

  /**
   * A loose object written straight into the scratch repository (zlib of `<type> <size>\0<body>`, named by
   * its sha1): a one-entry tree or a commit costs no process.
   */
  private writeObject(dir: string, type: 'tree' | 'commit', body: Buffer): string {
    const data = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
    const id = createHash('sha1').update(data).digest('hex');
    const file = path.join(dir, 'objects', id.slice(0, 2), id.slice(2));
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, deflateSync(data));
      fs.renameSync(tmp, file);
    }
    return id;
  }

  private commitOf(dir: string, name: string, side: BlobSide, parent: string | null): string {
    const tree = this.writeObject(dir, 'tree', Buffer.concat([Buffer.from(`${side.mode} ${name}\0`), Buffer.from(side.blob, 'hex')]));
    const who = 'thclaws <merge@thclaws.local> 1700000000 +0000';
    return this.writeObject(dir, 'commit', Buffer.from(`tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${who}\ncommitter ${who}\n\nmerge\n`));
  }

  private async run(todo: FileTriple[]): Promise<boolean[] | null> {
    const dir = await this.scratchRepo();
    if (!dir) return null;
    this.runs++;
    let input = '';
    for (const t of todo) {
      const name = `f${t.name.slice(t.name.lastIndexOf('.')).replace(/[^A-Za-z0-9.]/g, '')}`;
      const base = this.commitOf(dir, name, t.base, null);
      input += `${this.commitOf(dir, name, t.ours, base)} ${this.commitOf(dir, name, t.theirs, base)}\n`;
    }
    const mt = await runGit(dir, ['merge-tree', '--write-tree', '--name-only', '-z', '--stdin'], { input });
    if (mt.code !== 0) return null;
    return parseMergeTreeBatch(mt.stdout, todo.length)?.map((m) => m.conflicted.length > 0) ?? null;
  }

  dispose(): void {
    if (this.scratchDir) fs.rmSync(this.scratchDir, { recursive: true, force: true });
    this.scratchDir = null;
    this.scratch = null;
  }
}
