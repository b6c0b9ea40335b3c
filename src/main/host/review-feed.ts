/**
 * The review side of the TeamHost: each teammate's changes and comments, and the overlap/conflict warnings
 * between teammates, recomputed only when something they depend on changes — a file in a teammate worktree,
 * a branch ref, a worktree index, a review file — debounced, so an idle team costs nothing. A new conflict
 * (by identity: agents and conflicting paths) is told to the lead once, as a `conflict_warning` message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LEAD, USER, type TeamStore } from '../../core/store/index.js';
import { leadBranch, revParse, teamBranches, teammateChanges, type TeammateChanges } from '../../core/review/changes.js';
import { ConflictScanner, type ConflictWarning } from '../../core/review/conflicts.js';
import { markOutdated } from '../../core/review/review.js';
import { inBackground } from '../../core/git.js';
import { sendFrame } from '../../core/teams/protocol.js';
import { TreeWatch } from './tree-watch.js';
import type { ChangesView, ConflictWarningView, HostEvent, ReviewCommentView } from '../../contract/api.js';

/** Dependency and build folders of a worktree: their churn is never a teammate's change to review. */
const IGNORED = /\/(node_modules|\.git|dist|build|\.next|\.cache|target|\.venv|__pycache__)(\/|$)/;
/** In a worktree's admin dir only its index (staging) and HEAD (the checked-out branch) matter. */
const ADMIN_NOISE = /^\.git\/worktrees\/[^/]+\/(?!index$|HEAD$)[^/]+$/;

export interface ReviewFeedOptions {
  /** Quiet time after the last change before a recompute (ms). */
  debounceMs?: number;
  /** A recompute runs at the latest this long after the first change of a burst (ms). */
  maxWaitMs?: number;
}

/**
 * Runs `fn` now, or once more right after the run in flight (however many times it was asked meanwhile):
 * each run picks up everything that changed before it started.
 */
class Lane {
  private running: Promise<void> | null = null;
  private again = false;
  constructor(private readonly fn: () => Promise<void>) {}
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.fn();
      } while (this.again);
      this.running = null;
    })();
  }
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}

/** Per teammate: the worktree-relative paths written since the last scan, or null when not known. */
type Hints = Map<string, Set<string> | null>;

export class ReviewFeed {
  private readonly scanner: ConflictScanner;
  private watcher: TreeWatch | null = null;
  /** Teammates whose warnings / whose change lists need a recompute, kept apart: the warnings never wait for a change list. */
  private warnDirty: Hints = new Map();
  private changesDirty = new Set<string>();
  private warnAll = true;
  private changesAll = true;
  private refsDirty = true;
  private refs: Promise<{ agents: string[]; into: string; intoTip: string | null }> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private firstAt = 0;
  private readonly warnLane = new Lane(() => this.recomputeWarnings());
  private readonly changesLane = new Lane(() => this.recomputeChanges());
  private warnings: ConflictWarning[] = [];
  private readonly told = new Set<string>();
  private readonly views = new Map<string, string>();
  private closed = false;
  /** Called after each warnings recompute (benchmarks and tests wait on it). */
  onComputed: ((warnings: ConflictWarning[]) => void) | null = null;

  constructor(
    private readonly store: TeamStore,
    readonly root: string,
    readonly broadcast: (ev: HostEvent) => void,
    private readonly opts: ReviewFeedOptions = {},
  ) {
    this.scanner = new ConflictScanner(root);
  }

  async start(): Promise<void> {
    const gitDir = path.join(this.root, '.git');
    // Worktree files, branch refs (commits, also packed), the lead's branch, and each worktree's index (staging).
    this.watcher = new TreeWatch({ ignored: (p) => this.ignored(p), onPath: (p) => this.onPath(p), maxDepth: 30 });
    this.watcher.addTree(path.join(gitDir, 'refs', 'heads'));
    this.watcher.addFiles(gitDir, ['HEAD', 'packed-refs']);
    this.watchLate();
    this.schedule();
  }

  /** Folders that appear with the first worktree (after the dashboard opened) are watched once they exist. */
  private watchLate(): void {
    for (const p of [path.join(this.root, '.worktrees'), path.join(this.root, '.git', 'worktrees')]) {
      if (!this.late.has(p) && fs.existsSync(p)) {
        this.late.add(p);
        this.watcher?.addTree(p);
      }
    }
  }

  private readonly late = new Set<string>();

  private ignored(p: string): boolean {
    if (p.endsWith('.lock')) return true;
    const rel = path.relative(this.root, p).split(path.sep);
    // In a worktree, below the teammate's own folder (a teammate may be called `build`).
    if (rel[0] === '.worktrees') return rel[1] === '.integration' || IGNORED.test(`/${rel.slice(2).join('/')}`);
    return ADMIN_NOISE.test(rel.join('/'));
  }

  private dirtyAgent(agent: string, file: string | null | undefined): void {
    this.changesDirty.add(agent);
    const known = this.warnDirty.get(agent);
    if (known === null) return;
    if (file === null) this.warnDirty.set(agent, null);
    else if (file === undefined) this.warnDirty.set(agent, known ?? new Set());
    else this.warnDirty.set(agent, (known ?? new Set()).add(file));
  }

  private onPath(file: string): void {
    this.watchLate();
    const rel = path.relative(this.root, file).split(path.sep);
    if (rel[0] === '.worktrees' && rel[1] === '.integration') return;
    if (rel[0] === '.worktrees' && rel[1]) this.dirtyAgent(rel[1], rel.length > 2 ? rel.slice(2).join('/') : null);
    // The index (staged or committed: the snapshot re-seeds and re-walks) or the checked-out branch.
    else if (rel[0] === '.git' && rel[1] === 'worktrees' && rel[2]) this.dirtyAgent(rel[2], null);
    else if (rel[0] === '.git' && rel[1] === 'refs' && rel[3] === 'team' && rel[4]) {
      this.dirtyAgent(rel.slice(4).join('/'), undefined);
      this.refsDirty = true; // a branch may have appeared or gone
    } else {
      // The lead's branch moved, packed refs rewritten: every teammate's base may change.
      this.refsDirty = true;
      this.warnAll = true;
      this.changesAll = true;
    }
    this.schedule();
  }

  /** A team-dir change the host saw: a review file or the roster. */
  onTeamEvent(kind: string, agent?: string): void {
    if (kind === 'review' && agent) {
      void this.pushComments(agent);
      return;
    }
    if (kind === 'config') {
      this.watchLate();
      this.refsDirty = this.warnAll = this.changesAll = true;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.closed) return;
    const now = Date.now();
    if (!this.timer) this.firstAt = now;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.opts.debounceMs ?? 40, this.firstAt + (this.opts.maxWaitMs ?? 300) - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.closed) return;
      this.warnLane.kick();
      this.changesLane.kick();
    }, wait);
    this.timer.unref();
  }

  /** Waits until no recompute is in flight or due. */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all([this.warnLane.idle(), this.changesLane.idle()]);
      if (this.closed || !this.timer) return;
      // A recompute is due: let its timer fire (a macrotask), then wait for it.
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** The team branches and the lead's branch, read again only after a ref or the roster changed. */
  private refsNow(): Promise<{ agents: string[]; into: string; intoTip: string | null }> {
    if (this.refsDirty || !this.refs) {
      this.refsDirty = false;
      this.refs = (async () => {
        const [agents, into] = await Promise.all([teamBranches(this.root), leadBranch(this.root)]);
        return { agents, into, intoTip: await revParse(this.root, into) };
      })();
      this.refs.catch(() => (this.refsDirty = true));
    }
    return this.refs;
  }

  private async recomputeWarnings(): Promise<void> {
    if (this.closed) return;
    const all = this.warnAll;
    const dirty = this.warnDirty;
    this.warnAll = false;
    this.warnDirty = new Map();
    try {
      const { agents, into, intoTip } = await this.refsNow();
      const hints = new Map<string, Set<string>>();
      for (const [a, h] of dirty) if (h) hints.set(a, h);
      this.warnings = await this.scanner.scan(agents, all ? agents : agents.filter((a) => dirty.has(a)), { into, intoTip, hints });
      this.pushWarnings();
      this.onComputed?.(this.warnings);
    } catch (err) {
      this.broadcast({ type: 'notice', level: 'warn', text: `review: ${(err as Error).message}`.slice(0, 2000) });
    }
  }

  private async recomputeChanges(): Promise<void> {
    if (this.closed) return;
    const all = this.changesAll;
    const dirty = this.changesDirty;
    this.changesAll = false;
    this.changesDirty = new Set();
    try {
      const { agents, into } = await this.refsNow();
      for (const agent of all ? agents : agents.filter((a) => dirty.has(a))) {
        await this.warnLane.idle(); // a warning in the making goes first
        await inBackground(() => this.pushChanges(agent, into));
      }
    } catch (err) {
      this.broadcast({ type: 'notice', level: 'warn', text: `review: ${(err as Error).message}`.slice(0, 2000) });
    }
  }

  private async pushChanges(agent: string, into: string): Promise<void> {
    const ch = await teammateChanges(this.root, agent, { into });
    await markOutdated(this.store, this.root, ch).catch(() => []);
    this.changes.set(agent, ch);
    await this.pushComments(agent);
  }

  private readonly changes = new Map<string, TeammateChanges>();

  /** The current changes of an agent (computed on demand if the feed has not seen it yet). */
  async changesOf(agent: string): Promise<TeammateChanges> {
    return this.changes.get(agent) ?? teammateChanges(this.root, agent);
  }

  private async pushComments(agent: string): Promise<void> {
    const ch = this.changes.get(agent);
    if (!ch) return;
    const ev = this.changesEvent(ch, await this.store.reviews.list(agent).catch(() => []));
    const json = JSON.stringify(ev);
    if (this.views.get(agent) === json) return;
    this.views.set(agent, json);
    this.broadcast(ev);
  }

  private changesEvent(ch: TeammateChanges, comments: ReviewCommentView[]): HostEvent {
    const changes: ChangesView = { agent: ch.agent, branch: ch.branch, into: ch.into, base: ch.base, head: ch.head, ahead: ch.ahead, behind: ch.behind, last_commit: ch.last_commit, files: ch.files.slice(0, 20_000) };
    const list = comments.map((c) => ({ id: c.id, path: c.path, line: c.line, end_line: c.end_line ?? null, lines: c.lines, text: c.text, state: c.state, created_at: c.created_at, sent_at: c.sent_at ?? null, gone: c.gone ?? null }));
    return { type: 'review_changes', agent: ch.agent, changes, comments: list };
  }

  private lastWarnings = '';

  private pushWarnings(): void {
    const view: ConflictWarningView[] = this.warnings.map((w) => ({ id: w.id, kind: w.kind, agents: w.agents, files: w.files }));
    const json = JSON.stringify(view);
    if (json !== this.lastWarnings) {
      this.lastWarnings = json;
      this.broadcast({ type: 'conflict_warnings', warnings: view });
    }
    const current = new Set(this.warnings.filter((w) => w.kind === 'conflict').map((w) => w.id));
    for (const id of this.told) if (!current.has(id)) this.told.delete(id); // gone: a later return is new
    for (const w of this.warnings) {
      if (w.kind !== 'conflict' || this.told.has(w.id)) continue;
      this.told.add(w.id);
      void this.tellLead(w);
    }
  }

  private async tellLead(w: ConflictWarning): Promise<void> {
    const files = w.files.filter((f) => f.conflict).map((f) => `${f.path}${f.lines.length ? ` (lines ${f.lines.map((l) => (l.start === l.end ? l.start : `${l.start}-${l.end}`)).join(', ')})` : ''}`);
    const text = `Conflict warning: ${w.agents[0]} and ${w.agents[1]} are changing the same code and their work would conflict if merged: ${files.join('; ')}. Consider re-planning who owns these lines.`;
    const cfg = await this.store.config.load().catch(() => null);
    if (!cfg) return;
    // A frame carries the session's epoch: the lead drops typed frames of an earlier session.
    await sendFrame(this.store, USER, LEAD, 'conflict_warning', { agents: w.agents, files: w.files }, undefined, { text, summary: `conflict: ${w.agents.join(' + ')}` }).catch(() => undefined);
  }

  /** Everything a view needs on (re)connect. */
  snapshotEvents(): HostEvent[] {
    const out: HostEvent[] = [];
    for (const json of this.views.values()) out.push(JSON.parse(json) as HostEvent);
    out.push({ type: 'conflict_warnings', warnings: JSON.parse(this.lastWarnings || '[]') as ConflictWarningView[] });
    return out;
  }

  /** Forces a recompute of these agents (after a merge, a review action). */
  touch(agents?: string[]): void {
    if (agents) for (const a of agents) this.dirtyAgent(a, null);
    else this.refsDirty = this.warnAll = this.changesAll = true;
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    await Promise.all([this.warnLane.idle(), this.changesLane.idle()]);
    this.scanner.dispose();
  }
}
