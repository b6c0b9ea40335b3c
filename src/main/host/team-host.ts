import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { LEAD, TeamStore, USER, type AgentStatus, type TeamConfig, type TeamEvent } from '../../core/store/index.js';
import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from '../../core/teams/launcher.js';
import type { HostEvent, Member, SettingsView } from '../../contract/api.js';
import { PtyLauncher } from '../../core/teams/launchers/pty.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { stopMember, stopPtyAgent } from '../../core/teams/stop-member.js';
import type { PtyExit } from '../../core/teams/launchers/pty-process.js';
import { OutputTail } from './readonly-tail.js';
import { RecentWorkspaces } from './recent.js';
import { OutputScheduler } from './scheduler.js';
import { HostSettings } from './host-settings.js';
import { TeamDirWatcher } from './team-watch.js';
import { AgentTerminal, type TerminalView } from './terminal.js';
import { memberView, waitingOf, type HostSideInfo } from './views.js';
import { ApprovalsFeed } from './approvals-feed.js';
import { TaskFeed } from './task-feed.js';
import { LeadSetup } from './lead-setup.js';
import { leadSessionLeftBehind } from './team-resume.js';
import { childEnvOf, thclawsBin, type TeamHostOptions } from './host-options.js';
import { Membership } from './membership.js';
import { LazySpawnServer } from './lazy-spawn-server.js';
import { LeadQuestions } from './lead-questions.js';
import { ReviewFeed } from './review-feed.js';
import { BudgetFeed } from './budget-feed.js';
import { failUnbooted, leadCameUp } from './boot-outcome.js';
import { CostsFeed } from './costs-feed.js';
import { launchingRemote, linkEnded, remoteTeammatesFor, respawnRequest, serveRemoteTeammates } from '../remote/host-remote.js';

export { thclawsBin, type TeamHostOptions } from './host-options.js';
const LIVENESS_MS = 2000;

/**
 * The desktop app's engine, plain Node: owns the ptys of the lead and the teammates it spawns, tails the rest,
 * watches the team directory and pushes typed deltas to every connected view.
 */
export class TeamHost {
  readonly workspace: string;
  readonly store: TeamStore;
  readonly launcher: PtyLauncher;
  readonly settings: HostSettings;
  readonly scheduler: OutputScheduler; // shared by every terminal; sessions report receipt to it
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly tails = new Map<string, OutputTail>();
  private readonly side = new Map<string, HostSideInfo>();
  private readonly spawns = new Map<string, SpawnRequest>();
  private readonly statuses = new Map<string, AgentStatus | null>();
  private readonly queued = new Map<string, number>(); // unread counts, re-read on inbox events (no heartbeat re-parses every inbox)
  private ticks = 0;
  private readonly views = new Set<TerminalView>();
  private members = new Map<string, string>();
  private config: TeamConfig | null = null;
  private watcher: TeamDirWatcher | null = null;
  private readonly spawnServer: LazySpawnServer;
  private livenessTimer: NodeJS.Timeout | null = null;
  leadLeftBehind: string | undefined; // the previous host's lead conversation, which Resume team continues
  private closed = false;
  private stops = 0; // of the lead, so far: a restart that saw one meanwhile does not start it again
  readonly approvals: ApprovalsFeed; // teammates' pending permission requests and plans (the approval inbox)
  private readonly tasks: TaskFeed;
  readonly setup: LeadSetup; // whether the lead can start (a key, or the scripted provider)
  readonly membership: Membership; // the team from the GUI
  private readonly leadQuestions: LeadQuestions; // the lead REPL's own questions, as approval cards
  /** Teammates' changes, review comments and conflict warnings (the Changes view and the merge panel). */
  readonly review: ReviewFeed;
  readonly budgets: BudgetFeed; // spending limits, each agent's model calls, the 80 % notice
  readonly costs: CostsFeed; // each card's CPU, memory, disk and behind count; Update and Archive
  private readonly launching = new Set<string>();
  private readonly env: NodeJS.ProcessEnv; // the agents' environment: this process's and the options' overrides

  constructor(readonly opts: TeamHostOptions) {
    this.workspace = path.resolve(opts.workspace);
    this.store = TeamStore.forWorkspace(this.workspace);
    this.scheduler = new OutputScheduler(opts.budgetPerTick);
    this.leadQuestions = new LeadQuestions(this.side, () => (this.pushMember(LEAD), void this.approvals.refresh()));
    this.approvals = new ApprovalsFeed(this.store, (ev) => this.broadcast(ev), this.leadQuestions, (d) => this.terminal(LEAD).write(d));
    this.tasks = new TaskFeed(this.store, (ev) => this.broadcast(ev));
    this.spawnServer = new LazySpawnServer(this.store, () => this.hostLauncher(), `desktop ${process.pid}`);
    this.env = { ...process.env, ...opts.env };
    this.settings = new HostSettings(this.workspace, this.env, (ev) => this.broadcast(ev), () => this.closed);
    this.setup = new LeadSetup(this.workspace, this.env, opts.leadArgv, opts.keyCipher, (ev) => this.broadcast(ev));
    this.membership = new Membership({ ...opts, workspace: this.workspace, store: this.store, leadArgv: opts.leadArgv ?? [thclawsBin()], maxLiveTeammates: () => this.readSettingsSafe().maxLiveTeammates, roleModels: () => this.readSettingsSafe().roleModels, remote: remoteTeammatesFor(this.workspace, this.env) });
    this.review = new ReviewFeed(this.store, this.workspace, (ev) => this.broadcast(ev));
    this.budgets = new BudgetFeed(this.store, this.workspace, this.env, (ev) => this.broadcast(ev), () => this.memberList());
    this.costs = new CostsFeed(this.store, this.workspace, () => this.names(), (name) => void (this.names().includes(name) && this.pushMember(name))); // a sample outlives a replaced team
    serveRemoteTeammates(this.store, this.membership.remote!, () => ({ ...this.env, ...this.setup.envForAgents() })); // docs/remote.md
    this.launcher = new PtyLauncher(this.store, {
      terminal: (agent) => this.terminal(agent),
      exited: (agent, req, exit) => this.onExited(agent, req, exit),
    });
  }

  /** Reads the team on disk (reattaching after a restart), starts the watcher and, unless told not to, the lead. */
  async open(): Promise<void> {
    (this.opts.recent ?? new RecentWorkspaces()).add(this.workspace);
    this.watcher = new TeamDirWatcher(this.store.dir, (events) => void this.onEvents(events));
    await this.watcher.ready;
    await this.refreshAll();
    void this.review.start();
    this.livenessTimer = setInterval(() => this.recomputeLiveness(), LIVENESS_MS);
    this.livenessTimer.unref();
    this.costs.start();
    void this.settings.refreshSandbox();
    this.spawnServer.poke(); // the lead's host-mode spawn requests, served once a team dir exists (open writes nothing)
    this.leadLeftBehind = await leadSessionLeftBehind(this.store, this.workspace);
    if (this.opts.startLead !== false) await this.startLead();
  }

  /** The TeammateLauncher the teams runtime drives: launches through this host (its extra env under the request's) so panes and state follow. */
  hostLauncher(): TeammateLauncher {
    return {
      kind: 'desktop',
      launch: async (req): Promise<LaunchedTeammate> => {
        await this.launchRequest({ ...req, env: { ...this.opts.env, ...req.env } });
        return this.launcher.get(req.agent)!;
      },
      live: () => this.launcher.live(),
      dispose: () => this.launcher.dispose(),
    };
  }

  // ----- views ------------------------------------------------------------------------------------------

  addView(view: TerminalView): void {
    this.views.add(view);
  }

  removeView(view: TerminalView): void {
    this.views.delete(view);
    for (const t of this.terminals.values()) t.detach(view);
  }

  /** Everything a view needs on (re)connect; later changes arrive as deltas. */
  snapshot(view: TerminalView): void {
    view.send({ type: 'workspace', workspace: { dir: this.workspace, team: this.config?.name ?? null, recent: (this.opts.recent ?? new RecentWorkspaces()).list(), ...(this.opts.demo ? { demo: true } : {}), ...(this.opts.hostPid ? { host_pid: this.opts.hostPid } : {}) } });
    view.send({ type: 'roster', team: this.config?.name ?? null, members: this.memberList() });
    view.send({ type: 'tasks', tasks: this.tasks.current() });
    view.send(this.settings.event());
    view.send(this.settings.sandboxEvent());
    view.send(this.approvals.event());
    view.send({ type: 'setup', setup: this.setup.view() });
    void this.membership.specs().then((specs) => view.send({ type: 'member_specs', specs }));
    for (const ev of this.review.snapshotEvents()) view.send(ev);
    for (const ev of this.budgets.snapshotEvents()) view.send(ev);
  }

  private broadcast(ev: HostEvent): void {
    for (const v of this.views) v.send(ev);
  }

  terminal(agent: string): AgentTerminal {
    let t = this.terminals.get(agent);
    if (!t) this.terminals.set(agent, (t = new AgentTerminal(agent, this.scheduler)));
    return t;
  }

  // ----- processes -------------------------------------------------------------------------------------

  async startLead(resume?: string): Promise<void> {
    // Without a key the lead is "not configured" (the welcome says what to do), never a dead agent.
    if (this.setup.blocksLead(this.side)) return void (await this.refreshMember(LEAD));
    this.settings.leadStarted();
    await this.spawn(LEAD, [...(this.opts.leadArgv ?? [thclawsBin()]), ...(resume ? ['--resume', resume] : [])]);
  }

  async restartLead(resume?: string): Promise<void> {
    const running = this.launcher.get(LEAD);
    const stops = this.stops;
    if (running) await stopPtyAgent(this.store, LEAD, running, this.opts.stopGraceMs ?? TEAM_POLICY.shutdownGraceMs);
    // A Stop (or the host closing) during the old lead's grace wins: no new lead behind the person's back.
    if (this.closed || this.stops !== stops) throw new Error('the lead was stopped while it restarted: not started again');
    try {
      await this.startLead(resume);
      // "Resumed" only when the lead came up on its conversation; else the cause, and the offer stays.
      if (resume) await leadCameUp(this.store, this.side, this.spawns.get(LEAD));
      if (resume) this.leadLeftBehind = undefined;
    } finally {
      this.broadcast(this.settings.event());
    }
  }

  /** Starts `agent` in a pty this host owns (what `serveSpawnRequests` will call through `launcher`). */
  async spawn(agent: string, argv: string[], model?: string): Promise<void> {
    const req: SpawnRequest = {
      spawn_id: randomUUID(),
      agent,
      argv,
      cwd: this.workspace,
      env: childEnvOf(agent, this.store.dir, { ...this.opts.env, ...this.setup.envForAgents() }, () => this.leadQuestions.env()),
      team_dir: this.store.dir,
      model,
      requested_at: Date.now(),
    };
    await this.launchRequest(req);
  }

  async launchRequest(req: SpawnRequest): Promise<void> {
    // What the log got before the process (a worktree's bootstrap) stays in the pane the pty takes over.
    this.tails.get(req.agent)?.pull();
    this.tails.delete(req.agent);
    // No read-only tail while it launches (a member pushed meanwhile): the pty's output would be shown twice.
    this.launching.add(req.agent);
    launchingRemote(this.store, req);
    const launched = await this.launcher.launch(req).finally(() => this.launching.delete(req.agent));
    this.spawns.set(req.agent, req);
    this.side.set(req.agent, { pty: { pid: launched.pid }, spawnedHere: true, lastExit: null });
    await this.refreshMember(req.agent);
  }

  private onExited(agent: string, req: SpawnRequest, exit: PtyExit): void {
    this.side.set(agent, { pty: null, spawnedHere: true, lastExit: exit });
    if (req.env.THCLAWS_REMOTE_HOST) this.terminal(agent).push(linkEnded(this.store, agent, req, exit)); // its pty ran the ssh
    void failUnbooted(this.store, agent, req, exit).catch(() => undefined);
    this.broadcast({ type: 'exit', agent, code: exit.code, signal: exit.signal });
    if (!this.closed) void this.refreshMember(agent);
  }

  async stop(agent: string): Promise<void> {
    if (agent === LEAD) this.stops++;
    const running = this.launcher.get(agent);
    if (running) {
      if (agent !== LEAD) await this.store.statuses.write(agent, { status: 'stopped' }).catch(() => undefined);
      return void (await stopPtyAgent(this.store, agent, running, this.opts.stopGraceMs ?? TEAM_POLICY.shutdownGraceMs));
    }
    // Not ours (a lead spawned it in background or tmux mode): asked as the lead asks, then ended after the grace.
    await stopMember(this.store, agent, { from: USER, graceMs: this.opts.stopGraceMs ?? TEAM_POLICY.shutdownGraceMs, reason: 'the person pressed Stop' });
    await this.refreshMember(agent);
  }

  async respawn(agent: string): Promise<void> {
    if (this.launcher.get(agent)) throw new Error(`${agent} is running`);
    if (agent === LEAD) return this.startLead();
    const prev = this.spawns.get(agent);
    if (prev) return this.launchRequest(respawnRequest(prev, randomUUID()));
    const cfg = await this.store.config.require();
    const member = cfg.members.find((m) => m.name === agent);
    if (!member) throw new Error(`unknown teammate "${agent}"`);
    await this.spawn(agent, this.opts.teammateArgv?.(agent) ?? [thclawsBin(), '--team-agent', agent], member.model ?? undefined);
  }

  // ----- state (level-triggered) -----------------------------------------------------------------------

  private async onEvents(events: TeamEvent[]): Promise<void> {
    if (this.closed) return;
    this.spawnServer.poke();
    try {
      let tasks = false;
      // A teammate's `waiting` lives in its status, and its request frame lands in the lead's inbox right
      // after: either event refreshes the approval inbox (one of them may be coalesced away by the watcher).
      // A status event that changed neither `waiting` nor what a view shows (a heartbeat) leaves it alone:
      // re-reading every teammate's status on every heartbeat was most of the idle host's work.
      let approvals = events.some((ev) => ev.kind === 'inbox' && ev.agent === LEAD);
      for (const ev of events) {
        if (ev.kind === 'config') {
          await this.refreshRoster();
          approvals = true;
        } else if (ev.kind === 'status') {
          const before = JSON.stringify(waitingOf(this.statuses.get(ev.agent)));
          const shown = await this.refreshMember(ev.agent);
          if (shown || JSON.stringify(waitingOf(this.statuses.get(ev.agent))) !== before) approvals = true;
        } else if (ev.kind === 'inbox') {
          this.readQueued(ev.agent);
          await this.refreshMember(ev.agent, false);
        } else if (ev.kind === 'task') tasks = true;
        else if (ev.kind === 'output') this.tails.get(ev.agent)?.pull();
        if (ev.kind === 'review' || ev.kind === 'config') this.review.onTeamEvent(ev.kind, 'agent' in ev ? ev.agent : undefined);
      }
      if (approvals) void this.approvals.refresh();
      if (tasks) await this.refreshTasks();
    } catch (err) {
      this.broadcast({ type: 'notice', level: 'warn', text: `could not read the team state: ${(err as Error).message}` });
    }
  }

  private async refreshAll(): Promise<void> {
    await this.refreshRoster();
    await this.refreshTasks();
    await this.approvals.refresh();
  }

  private names(): string[] {
    return this.config ? [LEAD, ...this.config.members.map((m) => m.name)] : [LEAD];
  }

  async refreshRoster(): Promise<void> {
    this.config = await this.store.config.load();
    const cfg = this.config ?? ({ name: '', created_at: 0, lead: LEAD, members: [] } as TeamConfig);
    const next = new Map<string, string>();
    for (const name of this.names()) {
      await this.readStatus(name);
      this.readQueued(name);
      next.set(name, JSON.stringify(this.buildMember(name, cfg)));
      this.ensureTail(name);
    }
    this.members = next;
    const roster = this.memberList();
    await this.budgets.onRoster(roster); // budgets.json is config too
    void this.membership.specs().then((specs) => this.broadcast({ type: 'member_specs', specs }));
    this.broadcast({ type: 'roster', team: this.config?.name ?? null, members: roster });
  }

  private async readStatus(name: string): Promise<void> {
    this.statuses.set(name, await this.store.statuses.read(name).catch(() => null));
  }

  private readQueued(name: string): void {
    this.queued.set(name, this.store.inboxes.unread(name).length);
  }

  private buildMember(name: string, cfg: TeamConfig): Member {
    const side = this.side.get(name) ?? { pty: null, spawnedHere: false, lastExit: null };
    if (!this.queued.has(name)) this.readQueued(name);
    return { ...memberView(name, cfg, this.statuses.get(name) ?? null, this.queued.get(name)!, side, this.settings.models, this.tasks.current()), ...this.costs.of(name) };
  }

  /** A terminal for every member: a read-only tail unless this host runs it. */
  private ensureTail(name: string): void {
    if (this.launcher.get(name) || this.launching.has(name)) return;
    const member = this.members.get(name);
    const reason = member ? (JSON.parse(member) as Member).terminal : null;
    const why = reason?.kind === 'readonly' ? reason.reason : 'not started by this dashboard; output from output.log';
    const tail = this.tails.get(name);
    if (tail) tail.setReason(why);
    else this.tails.set(name, new OutputTail(this.store, this.terminal(name), why, this.spawns.has(name)));
  }

  /** Re-reads (unless told not to) and pushes one member; true when what a view shows changed. */
  async refreshMember(name: string, statusChanged = true): Promise<boolean> {
    if (!this.names().includes(name)) return false;
    if (statusChanged) await this.readStatus(name);
    return this.pushMember(name);
  }

  private pushMember(name: string): boolean {
    const cfg = this.config ?? ({ name: '', created_at: 0, lead: LEAD, members: [] } as TeamConfig);
    const m = this.buildMember(name, cfg);
    const json = JSON.stringify(m);
    if (this.members.get(name) === json) return false;
    this.members.set(name, json);
    this.budgets.observe(m);
    if (!this.launcher.get(name)) this.ensureTail(name);
    this.broadcast({ type: 'member', member: m });
    return true;
  }

  /** Liveness changes without any file event (a heartbeat going stale, a pid dying): re-derive from cache. */
  private recomputeLiveness(): void {
    const full = ++this.ticks % (this.opts.rereadEveryTicks ?? 5) === 0; // a missed event's safety net
    let changed = false;
    this.spawnServer.poke();
    for (const name of this.names()) {
      if (full) this.readQueued(name);
      if (this.pushMember(name)) changed = true;
    }
    if (changed || full) void this.approvals.refresh(); // a teammate that died while waiting leaves the inbox
    // Safety net, like the store's own feed: a change event can be coalesced away (or missed on some mounts);
    // a tail's pull is one fstat when nothing was appended.
    for (const tail of this.tails.values()) tail.pull();
  }

  /** The board, then each member: a completion refused for want of a commit turns its idle agent to `error`. */
  async refreshTasks(): Promise<void> {
    await this.tasks.refresh();
    for (const name of this.names()) this.pushMember(name);
  }

  readSettingsSafe(): SettingsView {
    return this.settings.read();
  }

  async patchSettings(patch: unknown): Promise<SettingsView> {
    const next = await this.settings.patch(patch);
    for (const name of this.names()) this.pushMember(name); // a role's model shows in its pane header
    void Promise.all([this.settings.refreshSandbox(), this.budgets.refresh()]).catch(() => undefined); // a settings budget counts too
    return next;
  }

  member(name: string): Member | null {
    return this.members.has(name) ? (JSON.parse(this.members.get(name)!) as Member) : null;
  }

  private memberList(): Member[] {
    return [...this.members.values()].map((m) => JSON.parse(m) as Member);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.livenessTimer) clearInterval(this.livenessTimer);
    this.costs.close();
    this.spawnServer.close();
    this.leadQuestions.close();
    await this.watcher?.close();
    await this.review.close();
    await this.launcher.dispose();
    this.scheduler.dispose();
    for (const t of this.terminals.values()) t.dispose();
  }
}

