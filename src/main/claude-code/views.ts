/**
 * Claude Code's own agent teams as a source of the dashboard's views (the third beside the in-process
 * HostManager and the host's RemoteViews): the roster, task board, message log and approvals inbox read from
 * `~/.claude` through cc36's reader, the message box writing to a member's inbox as `dashboard`, approvals
 * answered through the hook's files, the tmux panes as terminals. Everything else is Claude Code's to do: the
 * reply says so, and the workspace view's `claude_code` flag hides those controls.
 *
 * The files are polled (every `pollMs`), not watched: Claude Code replaces them by rename, removes and renames
 * whole team folders at exit, and the folders a watcher would need may not exist yet; one poll reads a few
 * small files, shared by every view.
 */
import { parseRequest, type HostEvent, type Request } from '../../contract/api.js';
import { answerApproval, pendingApprovals, type ApprovalRequest } from '../../core/claude-code/approvals.js';
import { sendToMember } from '../../core/claude-code/inbox.js';
import { teamLog } from '../../core/claude-code/log.js';
import { claudeDir } from '../../core/claude-code/paths.js';
import { listTeams, type TeamView } from '../../core/claude-code/teams.js';
import type { ViewLink } from '../daemon/remote-views.js';
import type { ViewEvent } from '../daemon/view-event.js';
import { paneOf, ViewTerminals } from './terminals.js';
import { agentNameOf, approvalOf, CLAUDE_CODE_DIR, logOf, memberOf, taskOf, teamApprovals, workspaceOf } from './to-api.js';

export const READ_ONLY = 'read-only: Claude Code runs this team';

/** What the view may ask of a Claude Code team; every other request is Claude Code's to do. */
const SERVED = new Set<Request['type']>(['subscribe', 'attach', 'detach', 'ack', 'received', 'resize', 'unsize', 'input', 'send_message', 'approval_answer', 'open_workspace']);

interface Snapshot {
  teams: TeamView[];
  approvals: ApprovalRequest[];
  /** The last read's failure (a file that does not parse), shown with the last teams read well. */
  error: string | null;
}

export interface ClaudeCodeViewsOptions {
  /** Claude Code's folder; default `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
  root?: string;
  /** The team a view opens first; default the newest live one. */
  team?: string;
  pollMs?: number;
}

/** The team a view shows: the one it picked, else the newest live team, else the newest. */
export function pickTeam(teams: TeamView[], picked: string | null): TeamView | undefined {
  if (picked) return teams.find((t) => t.name === picked);
  return teams.filter((t) => !t.ended).at(-1) ?? teams.at(-1);
}

export class ClaudeCodeViews {
  private readonly links = new Set<Link>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private snap: Snapshot = { teams: [], approvals: [], error: null };
  private reading: Promise<void> | null = null;
  readonly root: string;

  constructor(readonly opts: ClaudeCodeViewsOptions = {}) {
    this.root = opts.root ?? claudeDir();
  }

  get snapshot(): Snapshot {
    return this.snap;
  }

  /** Reads the files once (concurrent callers share the read) and brings every view up to date. */
  read(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const [teams, approvals] = await Promise.all([listTeams(this.root), pendingApprovals(this.root)]);
        this.snap = { teams: teams.map((t) => this.remembered(t)), approvals, error: null };
      } catch (err) {
        this.snap = { ...this.snap, error: (err as Error).message.split('\n')[0]! };
      }
      await Promise.all([...this.links].map((l) => l.render()));
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  /** Each team as last seen with its roster: its folder removed at exit, it keeps its members (ended) and their transcripts. */
  private readonly seen = new Map<string, TeamView>();

  private remembered(t: TeamView): TeamView {
    const before = this.seen.get(t.name);
    if (t.members.length || !before) {
      if (t.members.length) this.seen.set(t.name, t);
      return t;
    }
    const members = before.members.map(({ tmuxPane: _gone, ...m }) => ({ ...m, state: 'ended' as const }));
    return { ...before, ended: true, members, tasks: t.tasks };
  }

  private tick(): void {
    this.timer = setTimeout(() => {
      void this.read().finally(() => {
        if (this.links.size) this.tick();
      });
    }, this.opts.pollMs ?? 500);
  }

  connect(out: (event: ViewEvent) => void): ViewLink {
    const link = new Link(this, out, this.opts.team ?? null);
    this.links.add(link);
    if (!this.timer) this.tick();
    return {
      handle: (raw) => link.handle(raw),
      close: () => {
        link.close();
        this.links.delete(link);
        if (!this.links.size && this.timer) {
          clearTimeout(this.timer);
          this.timer = null;
        }
      },
    };
  }
}

/** One view's connection: its picked team, what it was sent last, its terminals. */
class Link {
  private subscribed = false;
  private readonly sent = new Map<string, string>();
  private readonly terms: ViewTerminals;
  private rendering: Promise<void> = Promise.resolve();
  private typing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly views: ClaudeCodeViews,
    private readonly out: (e: HostEvent) => void,
    private picked: string | null,
  ) {
    this.terms = new ViewTerminals(out);
  }

  private team(): TeamView | undefined {
    return pickTeam(this.views.snapshot.teams, this.picked);
  }

  /** Sends an event when it differs from the last of its kind. */
  private send(key: string, e: HostEvent): void {
    const json = JSON.stringify(e);
    if (this.sent.get(key) === json) return;
    this.sent.set(key, json);
    this.out(e);
  }

  render(): Promise<void> {
    this.rendering = this.rendering.then(() => this.renderNow()).catch((err: unknown) => this.out({ type: 'notice', level: 'error', text: String((err as Error).message ?? err).split('\n')[0]! }));
    return this.rendering;
  }

  private async renderNow(): Promise<void> {
    if (!this.subscribed || this.closed) return;
    const { teams, approvals, error } = this.views.snapshot;
    const team = this.team();
    const missing = this.picked && !team ? `no Claude Code team "${this.picked}" under ${this.views.root}/teams (known: ${teams.map((t) => t.name).join(', ') || 'none'})` : null;
    const shownError = error ?? missing ?? (teams.length ? null : `no Claude Code teams under ${this.views.root}/teams yet: a team appears here once a Claude Code session (CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1) creates one`);
    this.send('workspace', { type: 'workspace', workspace: workspaceOf(team, teams, shownError) });
    const mine = team ? teamApprovals(team, approvals) : [];
    this.send('roster', { type: 'roster', team: team?.name ?? null, members: team ? team.members.map((m) => memberOf(m, team, mine)) : [] });
    const now = Date.now();
    this.send('tasks', { type: 'tasks', tasks: (team?.tasks ?? []).flatMap((t) => taskOf(t, team!.tasks, now) ?? []) });
    this.send('approvals', { type: 'approvals', pending: mine.length, items: mine.map(approvalOf) });
    if (team) this.send('log', { type: 'message_log', entries: logOf(await teamLog(team)) });
    await this.terms.refresh(team);
  }

  private reply(id: number, error?: string, result?: unknown): void {
    if (error !== undefined) this.out({ type: 'reply', id, ok: false, error: error.split('\n')[0]!.slice(0, 2000) });
    else if (id !== 0) this.out({ type: 'reply', id, ok: true, ...(result === undefined ? {} : { result }) });
  }

  async handle(raw: unknown): Promise<void> {
    const parsed = parseRequest(raw);
    if (!parsed.ok) return this.out({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
    const r = parsed.request;
    if (!SERVED.has(r.type)) return this.reply(r.id, `${READ_ONLY} (${r.type.replace(/_/g, ' ')} is Claude Code's to do)`);
    try {
      await this.serve(r);
    } catch (err) {
      this.reply(r.id, (err as Error).message);
    }
  }

  private member(agent: string) {
    const team = this.team();
    const m = team?.members.find((x) => agentNameOf(x.name) === agent);
    if (!team || !m) throw new Error(`unknown member "${agent}"${team ? ` of Claude Code team "${team.name}"` : ''}`);
    return { team, m };
  }

  private async serve(r: Request): Promise<void> {
    switch (r.type) {
      case 'subscribe':
        this.subscribed = true;
        this.sent.clear();
        this.reply(r.id);
        await this.views.read();
        return;
      case 'attach':
        this.terms.attach(r.agent);
        this.reply(r.id);
        await this.render();
        return;
      case 'detach':
        this.terms.detach(r.agent);
        return this.reply(r.id);
      case 'input': {
        // Each keystroke is its own request: they reach tmux one after the other, in the order typed.
        const turn = this.typing.then(async () => {
          const { team, m } = this.member(r.agent);
          const pane = await paneOf(team, m);
          if (!pane) throw new Error(`${READ_ONLY}: ${m.name} has no tmux pane to type into (an in-process teammate, or the team ended); send it a message instead`);
          await pane.server.sendKeys(pane.pane, r.data);
        });
        this.typing = turn.catch(() => undefined);
        await turn;
        return this.reply(r.id);
      }
      case 'send_message': {
        if (r.to === '*') throw new Error('a Claude Code team takes messages one member at a time: use the message box of the member');
        const { team, m } = this.member(r.to);
        if (team.ended) throw new Error(`Claude Code team "${team.name}" has ended: nobody reads its inboxes`);
        await sendToMember(team.name, m.name, r.text, this.views.root);
        this.reply(r.id);
        return void this.views.read();
      }
      case 'approval_answer': {
        await answerApproval(r.request_id, { behavior: r.allow ? 'allow' : 'deny', ...(r.feedback ? { message: r.feedback } : {}) }, this.views.root);
        this.reply(r.id);
        return void this.views.read();
      }
      case 'open_workspace': {
        if (!r.dir.startsWith(CLAUDE_CODE_DIR)) throw new Error(`this dashboard shows Claude Code teams only: open ${r.dir} with thclaws dashboard --dir ${r.dir}`);
        // The attached terminals stay: a member of the new team with the same name shows its own source.
        this.picked = r.dir.slice(CLAUDE_CODE_DIR.length) || null;
        this.reply(r.id);
        return this.render();
      }
      default:
        // Acks, received counts and sizes: a tmux pane keeps the size its own window gives it.
        return this.reply(r.id);
    }
  }

  close(): void {
    this.closed = true;
    this.terms.close();
  }
}
