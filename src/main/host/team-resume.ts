import fs from 'node:fs';
import path from 'node:path';
import { sessionsDir, SessionStore } from '../../core/agent/sessions.js';
import { deriveState, isLive, LEAD, leaseHeldByLive, TeamError, type TeamStore } from '../../core/store/index.js';

export interface ResumeOutcome {
  /** Members started again on their saved conversation. */
  resumed: { name: string; session_id: string }[];
  /** Members with no saved conversation: started fresh. */
  fresh: string[];
  /** Members that could not be started, with the runtime's one-line reason. */
  failed: { name: string; error: string }[];
}

export interface ResumeDeps {
  workspace: string;
  store: TeamStore;
  /** The runtime's own spawn (cap, guards, sandbox, epoch); `resume` adds `--resume <id>`. */
  start: (name: string, resume?: string) => Promise<void>;
  /** The lead's conversation left by the host before this one, and how to restart the lead on it. */
  lead?: { session: string | undefined; restart: (resume: string) => Promise<void> };
}

/**
 * The conversation of a lead that was not stopped by this host: its status names a session and no live process
 * holds it. Read when a host opens a workspace, before it starts a lead of its own.
 */
export async function leadSessionLeftBehind(store: TeamStore, workspace: string): Promise<string | undefined> {
  const status = await store.statuses.read(LEAD).catch(() => null);
  if (!status?.session_id || isLive(deriveState(status)) || leaseHeldByLive(store.paths, LEAD)) return undefined;
  return fs.existsSync(path.join(sessionsDir(workspace), `${status.session_id}.jsonl`)) ? status.session_id : undefined;
}

/**
 * "Resume team" after the processes that ran it are gone (the host killed, a reboot): the lead goes on with the
 * conversation it had (see `lead`), and every member that ran and is now dead or stopped is started again in its own folder, continuing the conversation its status
 * names (or, for a status written before sessions were recorded, its newest saved one). Refused while a
 * teammate is live, so no member ever runs twice or loses a running turn.
 */
export async function resumeTeam(d: ResumeDeps): Promise<ResumeOutcome> {
  const cfg = await d.store.config.require();
  const todo: { name: string; session: string | undefined }[] = [];
  const live: string[] = [];
  for (const m of cfg.members) {
    const status = await d.store.statuses.read(m.name).catch(() => null);
    const state = deriveState(status);
    if (isLive(state) || leaseHeldByLive(d.store.paths, m.name)) live.push(`${m.name} (${isLive(state) ? state : 'holds its lease'})`);
    else if (state !== 'defined') todo.push({ name: m.name, session: savedSession(d.workspace, m.name, status?.session_id ?? undefined) });
  }
  if (live.length) throw new TeamError('conflict', `cannot resume the team while ${live.join(', ')} ${live.length > 1 ? 'are' : 'is'} running: stop ${live.length > 1 ? 'them' : 'it'} first`);
  // The lead this host started is restarted on the old conversation only while it has taken no turn of its
  // own (its status still names the old session): a lead the person already talked to is left alone.
  const leadSession = d.lead?.session;
  const leadNow = leadSession ? await d.store.statuses.read(LEAD).catch(() => null) : null;
  const resumeLead = !!leadSession && (!leadNow?.session_id || leadNow.session_id === leadSession);
  if (!todo.length && !resumeLead) throw new TeamError('conflict', `no teammate of team "${cfg.name}" has run yet: start them instead`);
  const out: ResumeOutcome = { resumed: [], fresh: [], failed: [] };
  if (resumeLead) {
    try {
      await d.lead!.restart(leadSession!);
      out.resumed.push({ name: LEAD, session_id: leadSession! });
    } catch (err) {
      out.failed.push({ name: LEAD, error: (err as Error).message.split('\n')[0]!.slice(0, 500) });
    }
  }
  // One at a time: the live-teammate cap is counted per spawn, and each waits for its member's boot.
  for (const { name, session } of todo) {
    try {
      await d.start(name, session);
      if (session) out.resumed.push({ name, session_id: session });
      else out.fresh.push(name);
    } catch (err) {
      out.failed.push({ name, error: (err as Error).message.split('\n')[0]!.slice(0, 500) });
    }
  }
  return out;
}

/** The session to continue: the one the status names if its file is still there, else the member's newest. */
function savedSession(workspace: string, name: string, recorded: string | undefined): string | undefined {
  if (recorded && fs.existsSync(path.join(sessionsDir(workspace), `${recorded}.jsonl`))) return recorded;
  return SessionStore.newest(workspace, name);
}
