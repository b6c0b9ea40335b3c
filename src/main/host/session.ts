import { LEAD, TeamError, USER } from '../../core/store/index.js';
import { sendFrame } from '../../core/teams/protocol.js';
import { tellOwnerCancelled } from '../../core/teams/task-cancel.js';
import { parseRequest, type HostEvent, type Request } from '../../contract/api.js';
import type { TeamHost } from './team-host.js';
import { isReviewRequest, runReviewRequest } from './review-requests.js';
import { readSavedOutput } from './saved-output.js';
import { resumeTeam } from './team-resume.js';
import { messageLeadWithoutTeam } from './lead-message.js';
import type { TerminalView } from './terminal.js';
import { storeServerOf } from './store-server.js';

/**
 * One connected view (a WebSocket, an Electron window): runs each request (validated once, where it entered
 * this process) on the host, and answers with a reply. Nothing a view sends can throw out of here.
 */
export class HostSession implements TerminalView {
  private closed = false;
  /**
   * Whether this view may hand the host a key (`key_hold`): only the desktop app's main process, over the host's
   * socket, does; a page (in-process, or forwarded by a dashboard) never may, or it could swap the agents' key.
   */
  mayHoldKey = false;

  constructor(
    private readonly host: TeamHost,
    private readonly out: (event: HostEvent) => void,
  ) {
    host.addView(this);
  }

  send(event: HostEvent): void {
    if (this.closed) return;
    if (event.type === 'output' || event.type === 'replay') this.host.scheduler.transit.sent(this, event.data.length);
    this.out(event);
  }

  /** A request not yet validated (an in-process harness): parsed here, once, then served. */
  async handle(raw: unknown): Promise<void> {
    const parsed = parseRequest(raw);
    if (!parsed.ok) return this.send({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
    await this.serve(parsed.request);
  }

  /** A request the receiving process already validated where it entered (never parsed again here). */
  async serve(req: Request): Promise<void> {
    try {
      const result = await this.run(req);
      // id 0 is fire-and-forget (acks, keystrokes, resizes): answered only when it fails.
      if (req.id !== 0) this.send({ type: 'reply', id: req.id, ok: true, ...(result === undefined ? {} : { result }) });
    } catch (err) {
      this.send({ type: 'reply', id: req.id, ok: false, error: oneLine(err) });
    }
  }

  private async run(req: Request): Promise<unknown> {
    const h = this.host;
    if (isReviewRequest(req)) return runReviewRequest(h.store, h.review, req);
    switch (req.type) {
      case 'subscribe':
        h.snapshot(this);
        return undefined;
      case 'store':
        // A teammate's link is no view: the dashboard's broadcasts (roster, the whole board) never cross it.
        if (req.call.op === 'attach') h.removeView(this);
        return storeServerOf(h.store).serve(this, req);
      case 'attach': {
        const t = h.terminal(req.agent);
        t.attach(this);
        if (req.cols !== undefined && req.rows !== undefined) t.resize(this, req.cols, req.rows);
        return { seq: t.seq };
      }
      case 'unsize':
        h.terminal(req.agent).unsize(this);
        return undefined;
      case 'detach':
        h.terminal(req.agent).detach(this);
        return undefined;
      case 'ack':
        h.terminal(req.agent).ack(this, req.chars);
        return undefined;
      case 'received':
        h.scheduler.received(this, req.chars);
        return undefined;
      case 'input': {
        const t = h.terminal(req.agent);
        // Typing makes this view the one whose size the pty follows.
        t.use(this);
        if (!t.write(req.data)) {
          const mode = t.mode;
          throw new Error(`${req.agent} is read-only here${mode?.kind === 'readonly' ? `: ${mode.reason}` : ''}`);
        }
        return undefined;
      }
      case 'resize':
        h.terminal(req.agent).resize(this, req.cols, req.rows, req.active);
        return undefined;
      case 'send_message':
        // Before a team exists the lead reads no inbox: the message is typed into its REPL, as a person would.
        if (req.to === LEAD && !(await h.store.config.load().catch(() => null))) return { sent: await messageLeadWithoutTeam(h, req.text) };
        return { sent: (await h.store.send(USER, req.to, req.text)).length };
      case 'abort_turn':
        // The lead's REPL aborts its turn on Ctrl-C; a teammate's loop on the person's frame of this session.
        if (req.agent !== LEAD) await sendFrame(h.store, USER, req.agent, 'abort_turn', {});
        else if (!h.terminal(LEAD).write('\x03')) throw new Error('the lead runs outside this dashboard: press Ctrl-C in its terminal');
        return undefined;
      case 'stop':
        await h.stop(req.agent);
        return undefined;
      case 'respawn':
        await h.respawn(req.agent);
        return undefined;
      case 'restart_lead':
        await h.restartLead();
        return undefined;
      case 'task_create':
        return (await h.store.tasks.create({ subject: req.subject, description: req.description, reservedFor: req.reserved_for, blockedBy: req.blocked_by })).id;
      case 'task_edit':
        await h.store.tasks.update(req.task, { subject: req.subject, description: req.description });
        return undefined;
      case 'task_reassign':
        await h.store.tasks.update(req.task, { reservedFor: req.reserved_for });
        return undefined;
      case 'task_cancel': {
        const { old: before } = await h.store.tasks.change(req.task, { cancel: true, reason: 'by user', extra: { cancelled_by: 'user' } });
        await tellOwnerCancelled(h.store, USER, before, 'cancelled by the person from the dashboard').catch((err: unknown) => {
          throw new Error(`task ${req.task} is cancelled, but ${before.owner} could not be told to stop: ${(err as Error).message}`);
        });
        return undefined;
      }
      case 'settings_get':
        return h.readSettingsSafe();
      case 'settings_set':
        return h.patchSettings(req.patch);
      case 'approval_answer':
        await h.approvals.answer(req);
        return undefined;
      case 'open_workspace':
      case 'demo_start':
        throw new Error(`${req.type} is handled by the transport`);
      case 'host_stop':
        throw new Error('this dashboard runs the team itself (--in-process): stop it with Ctrl-C');
      case 'key_set':
      case 'key_hold': {
        if (req.type === 'key_hold' && !this.mayHoldKey) throw new Error("key_hold is the desktop app's own message: a page saves a key with key_set");
        // The live demo runs on the scripted provider: no key reaches its agents (demo-workspace.ts), the desktop's neither.
        if (req.type === 'key_hold' && h.opts.demo) return { last4: null };
        const setup = req.type === 'key_set' ? h.setup.setKey(req.key) : h.setup.holdKey(req.key.trim());
        // The lead was waiting only for the key: it starts now.
        if (!setup.needs_key && h.member(LEAD)?.state === 'not_configured') await h.startLead();
        return { last4: setup.key?.last4 ?? null };
      }
      case 'key_check':
        return h.setup.check();
      case 'key_remove': {
        const setup = h.setup.removeKey();
        return { key: setup.key ? { source: setup.key.source, last4: setup.key.last4 } : null };
      }
      // Each answers with what it changed, so a view can tell success from a refusal without a second look.
      case 'team_create':
        await h.membership.createTeam(req.name, req.description);
        return { team: req.name };
      case 'member_add':
        await h.membership.add(req.name, req.spec);
        return { added: req.name };
      case 'member_edit':
        await h.membership.edit(req.name, req.spec);
        return { edited: req.name };
      case 'member_remove':
        await h.membership.remove(req.name);
        return { removed: req.name };
      case 'member_start':
        await h.membership.start(req.name);
        return { started: req.name };
      case 'member_update':
        return h.costs.update(req.name);
      case 'member_archive':
        return h.costs.archive(req.name, req.force);
      case 'team_resume':
        return resumeTeam({ workspace: h.workspace, store: h.store, start: (name, resume) => h.membership.start(name, resume), lead: { session: h.leadLeftBehind, restart: (id) => h.restartLead(id) } });
      case 'budget_set':
        return { budgets: await h.budgets.set(req) };
      case 'saved_output':
        return readSavedOutput(h.workspace, req.file);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void storeServerOf(this.host.store).detach(this);
    this.host.removeView(this);
    this.host.scheduler.removeView(this);
  }
}

/** A store error that names a CLI command is said in terms of this page, which has the control. */
const NO_TEAM = 'there is no team yet: use "Create a team" above, or ask the lead to build one';

function oneLine(err: unknown): string {
  if (err instanceof TeamError && err.code === 'no_team') return NO_TEAM;
  const msg = err instanceof TeamError || err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!.slice(0, 2000);
}
