/**
 * Claude Code's teams as thclaws shows them: the roster from `teams/<team>/config.json`, the lead's state from
 * its session file (`sessions/<pid>.json`, checked against the live process), each in-process teammate's from
 * its transcript. A team whose folder is gone (or renamed `.deleted-…`) but whose tasks remain is `ended`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { claudeDir, sessionFile, teamsDir } from './paths.js';
import { ClaudeCodeFormatError, readJsonFile, sessionSchema, teamConfigSchema, type ClaudeMember, type ClaudeSession, type ClaudeTeamConfig, type ClaudeTask } from './schemas.js';
import { readTasks } from './tasks.js';
import { leadTranscript } from './paths.js';
import { paneTranscripts, readTranscript, subagentTranscripts, transcriptVersion, turnState } from './transcripts.js';
import { pidAlive } from '../store/index.js';

export type MemberState = 'idle' | 'busy' | 'waiting' | 'starting' | 'ended' | 'unknown';

export interface MemberView {
  name: string;
  agentType?: string;
  backend?: string;
  model?: string;
  state: MemberState;
  /** What the member waits for ('permission prompt'), when Claude Code says. */
  waitingFor?: string;
  transcript?: string;
  /** Its tmux pane id (`%3`): the lead's from its session file, a pane teammate's from the roster. */
  tmuxPane?: string;
}

export interface TeamView {
  name: string;
  ended: boolean;
  /** The Claude Code version that wrote the team's files, when a session file or transcript names it. */
  version?: string;
  cwd?: string;
  leadSessionId?: string;
  leadPid?: number;
  members: MemberView[];
  tasks: ClaudeTask[];
}

const DELETED = '.deleted-';

/** The lead's session file, only while that very process runs (a pid reused by another process is not it). */
async function liveLeadSession(config: ClaudeTeamConfig, root: string): Promise<ClaudeSession | undefined> {
  const lead = config.leadProcess;
  if (!lead || !pidAlive(lead.pid)) return undefined;
  const session = await readJsonFile(sessionFile(lead.pid, root), sessionSchema);
  if (!session) return undefined;
  if (config.leadSessionId && session.sessionId !== config.leadSessionId) return undefined;
  if (lead.procStart && session.procStart && lead.procStart !== session.procStart) return undefined;
  return session;
}

function leadState(session: ClaudeSession | undefined): Pick<MemberView, 'state' | 'waitingFor'> {
  if (!session) return { state: 'ended' };
  const s = session.status;
  if (s === 'idle' || s === 'busy' || s === 'waiting') return { state: s, ...(session.waitingFor ? { waitingFor: session.waitingFor } : {}) };
  return { state: 'unknown' };
}

/** The version of the lead that wrote a config thclaws cannot read, from its session file, when there is one. */
async function versionOfWriter(file: string, root: string): Promise<string | undefined> {
  try {
    const pid = (JSON.parse(await readFile(file, 'utf8')) as { leadProcess?: { pid?: unknown } }).leadProcess?.pid;
    return typeof pid === 'number' ? (await readJsonFile(sessionFile(pid, root), sessionSchema))?.version : undefined;
  } catch {
    return undefined;
  }
}

async function readConfig(file: string, root: string): Promise<ClaudeTeamConfig | undefined> {
  try {
    return await readJsonFile(file, teamConfigSchema);
  } catch (err) {
    if (!(err instanceof ClaudeCodeFormatError) || err.version) throw err;
    throw new ClaudeCodeFormatError(err.file, await versionOfWriter(file, root), err.what);
  }
}

async function readTeam(dirName: string, root: string): Promise<TeamView | undefined> {
  const deleted = dirName.startsWith(DELETED);
  const config = await readConfig(path.join(teamsDir(root), dirName, 'config.json'), root);
  if (!config) return undefined;
  const session = deleted ? undefined : await liveLeadSession(config, root);
  const ended = !session;
  const cwd = session?.cwd ?? config.members.find((m) => m.name === 'team-lead')?.cwd ?? config.members[0]?.cwd;
  const sessionId = config.leadSessionId ?? session?.sessionId;
  const leadRecords = cwd && sessionId ? await readTranscript(leadTranscript(cwd, sessionId, root)) : [];
  const version = session?.version ?? transcriptVersion(leadRecords);
  const subs = cwd && sessionId ? await subagentTranscripts(cwd, sessionId, root) : new Map<string, string>();
  if (cwd && config.members.some((m) => m.backendType && m.backendType !== 'in-process')) {
    for (const [name, file] of await paneTranscripts(cwd, config.name, config.createdAt ?? 0, root)) if (!subs.has(name)) subs.set(name, file);
  }
  const members: MemberView[] = [];
  const leadFile = cwd && sessionId ? leadTranscript(cwd, sessionId, root) : undefined;
  for (const m of config.members) members.push(await memberView(m, config, session, leadFile, subs));
  return {
    name: config.name,
    ended,
    ...(version ? { version } : {}),
    ...(cwd ? { cwd } : {}),
    ...(sessionId ? { leadSessionId: sessionId } : {}),
    ...(config.leadProcess ? { leadPid: config.leadProcess.pid } : {}),
    members,
    tasks: (await readTasks(config.name, root, version)) ?? [],
  };
}

async function memberView(m: ClaudeMember, config: ClaudeTeamConfig, session: ClaudeSession | undefined, leadFile: string | undefined, subs: Map<string, string>): Promise<MemberView> {
  const base: Omit<MemberView, 'state'> = { name: m.name, ...(m.agentType ? { agentType: m.agentType } : {}), ...(m.backendType ? { backend: m.backendType } : {}), ...(m.model ? { model: m.model } : {}) };
  const isLead = m.agentId !== undefined ? m.agentId === config.leadAgentId : m.name === 'team-lead';
  if (isLead) {
    const pane = /%\d+$/.exec(session?.tmux ?? '')?.[0];
    return { ...base, ...leadState(session), ...(leadFile ? { transcript: leadFile } : {}), ...(pane ? { tmuxPane: pane } : {}) };
  }
  if (m.tmuxPaneId && /^%\d+$/.test(m.tmuxPaneId)) base.tmuxPane = m.tmuxPaneId;
  const transcript = subs.get(m.name);
  if (!session) return { ...base, state: 'ended', ...(transcript ? { transcript } : {}) };
  if (m.isActive === false) return { ...base, state: 'idle', ...(transcript ? { transcript } : {}) };
  if (!transcript) return { ...base, state: 'starting' };
  return { ...base, state: turnState(await readTranscript(transcript)), transcript };
}

/** Every team under `teams/`, live or ended, and every task list left by a team whose folder is gone. */
export async function listTeams(root = claudeDir()): Promise<TeamView[]> {
  let dirs: string[] = [];
  try {
    dirs = (await readdir(teamsDir(root), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const teams: TeamView[] = [];
  for (const dir of dirs.sort()) {
    const team = await readTeam(dir, root);
    if (team && !teams.some((t) => t.name === team.name)) teams.push(team);
  }
  let taskDirs: string[] = [];
  try {
    taskDirs = (await readdir(path.join(root, 'tasks'), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const name of taskDirs.sort()) {
    if (teams.some((t) => t.name === name)) continue;
    const tasks = await readTasks(name, root);
    if (tasks?.length) teams.push({ name, ended: true, members: [], tasks });
  }
  return teams;
}

/** One team by name; the error names the teams there are. */
export async function findTeam(name: string, root = claudeDir()): Promise<TeamView> {
  const teams = await listTeams(root);
  const team = teams.find((t) => t.name === name);
  if (!team) throw new Error(`unknown Claude Code team "${name}"; known: ${teams.map((t) => t.name).join(', ') || '(none)'}`);
  return team;
}

