/**
 * The review side of the TeamHost: each teammate's changes and comments, and the overlap/conflict warnings
 * between teammates, recomputed only when something they depend on changes — a file in a teammate worktree,
 * a branch ref, a worktree index, a review file — debounced, so an idle team costs nothing. A new conflict
 * (by identity: agents and conflicting paths) is told to the lead once, as a `conflict_warning` message.
 */
import fs from 'node:fs';
import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import { LEAD, USER, type TeamStore } from '../../core/store/index.js';
import { leadBranch, teamBranches, teammateChanges, type TeammateChanges } from '../../core/review/changes.js';
import { ConflictScanner, type ConflictWarning } from '../../core/review/conflicts.js';
import { markOutdated } from '../../core/review/review.js';
import { currentEpoch } from '../../core/teams/protocol.js';
import type { ChangesView, ConflictWarningView, HostEvent, ReviewCommentView } from '../../shared/api.js';

/** Dependency and build folders of a worktree: their churn is never a teammate's change to review. */
const IGNORED = /[\\/](node_modules|\.git|dist|build|\.next|\.cache|target|\.venv|__pycache__)([\\/]|$)/;

export interface ReviewFeedOptions {
  /** Quiet time after the last change before a recompute (ms). */
  debounceMs?: number;
  /** A recompute runs at the latest this long after the first change of a burst (ms). */
  maxWaitMs?: number;
}

export class ReviewFeed {
  private readonly scanner: ConflictScanner;
  private watcher: FSWatcher | null = null;
  private readonly dirty = new Set<string>();
  private all = true;
  private timer: NodeJS.Timeout | null = null;
  private firstAt = 0;
  private running: Promise<void> = Promise.resolve();
  private agents: string[] = [];
  private warnings: ConflictWarning[] = [];
  private readonly told = new Set<string>();
  private readonly views = new Map<string, string>();
  private closed = false;
  /** Called after each recompute (benchmarks and tests wait on it). */
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
    // Worktree files, branch refs (commits, also packed), and each worktree's index (staging).
    this.watcher = chokidar.watch([path.join(this.root, '.worktrees'), path.join(gitDir, 'refs', 'heads'), path.join(gitDir, 'packed-refs'), path.join(gitDir, 'worktrees'), path.join(gitDir, 'HEAD')], {
      ignoreInitial: true,
      ignored: (p) => IGNORED.test(p.slice(this.root.length)) || /[\\/]\.git[\\/]worktrees[\\/][^\\/]+[\\/](?!index$|HEAD$)[^\\/]+$/.test(p) || p.endsWith('.lock'),
      depth: 30,
    });
    this.watcher.on('all', (_ev, file) => this.onPath(file));
    this.watcher.on('error', () => {});
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    this.watchLate();
    this.schedule();
  }

  /** Folders that appear with the first worktree (after the dashboard opened) are watched once they exist. */
  private watchLate(): void {
    for (const p of [path.join(this.root, '.worktrees'), path.join(this.root, '.git', 'worktrees')]) {
      if (!this.late.has(p) && fs.existsSync(p)) {
        this.late.add(p);
        this.watcher?.add(p);
      }
    }
  }

  private readonly late = new Set<string>();

  private onPath(file: string): void {
    this.watchLate();
    const rel = path.relative(this.root, file).split(path.sep);
    if (rel[0] === '.worktrees' && rel[1] && rel[1] !== '.integration') this.dirty.add(rel[1]);
    else if (rel[0] === '.git' && rel[1] === 'worktrees' && rel[2]) this.dirty.add(rel[2]);
    else if (rel[0] === '.git' && rel[1] === 'refs' && rel[3] === 'team' && rel[4]) this.dirty.add(rel.slice(4).join('/'));
    else if (rel[0] === '.worktrees' && rel[1] === '.integration') return;
    else this.all = true; // the lead's branch moved, packed refs rewritten: every teammate's base may change
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
      this.all = true;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.closed) return;
    const now = Date.now();
    if (!this.timer) this.firstAt = now;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.opts.debounceMs ?? 60, this.firstAt + (this.opts.maxWaitMs ?? 400) - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.recompute();
    }, wait);
    this.timer.unref();
  }

  /** Waits for any recompute in flight. */
  idle(): Promise<void> {
    return this.running;
  }

  private recompute(): Promise<void> {
    const all = this.all;
    const dirty = new Set(this.dirty);
    this.all = false;
    this.dirty.clear();
    this.running = this.running.then(async () => {
      if (this.closed) return;
      try {
        this.agents = await teamBranches(this.root);
        const into = await leadBranch(this.root);
        const changed = all ? this.agents : this.agents.filter((a) => dirty.has(a));
        for (const agent of changed) await this.pushChanges(agent, into);
        this.warnings = await this.scanner.scan(this.agents, changed, into);
        this.pushWarnings();
        this.onComputed?.(this.warnings);
      } catch (err) {
        this.broadcast({ type: 'notice', level: 'warn', text: `review: ${(err as Error).message}`.slice(0, 2000) });
      }
    });
    return this.running;
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
    const list = comments.map((c) => ({ id: c.id, path: c.path, line: c.line, end_line: c.end_line ?? null, lines: c.lines, text: c.text, state: c.state, created_at: c.created_at }));
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
    // Typed messages carry the session's epoch: the lead drops typed frames of an earlier session.
    const epoch = await currentEpoch(this.store).catch(() => null);
    await this.store.send(USER, LEAD, text, { type: 'conflict_warning', summary: `conflict: ${w.agents.join(' + ')}`, extra: { agents: w.agents, files: w.files, epoch } }).catch(() => undefined);
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
    if (agents) for (const a of agents) this.dirty.add(a);
    else this.all = true;
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
    await this.running;
  }
}
