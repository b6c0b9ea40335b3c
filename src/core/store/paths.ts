import path from 'node:path';
import { assertAgentName, assertTaskId } from './names.js';

/** Default team dir of a workspace; THCLAWS_TEAM_DIR overrides it. */
export function resolveTeamDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.THCLAWS_TEAM_DIR;
  if (fromEnv) return path.resolve(workspace, fromEnv);
  return path.join(path.resolve(workspace), '.thclaws', 'state', 'team');
}

/** Every path of the team dir. Names and ids are validated here too, so no caller can build a path around it. */
export class TeamPaths {
  // Fixed paths computed once: they sit on the claim and scan hot paths.
  readonly config: string;
  readonly log: string;
  readonly inboxesDir: string;
  readonly tasksDir: string;
  readonly agentsDir: string;
  readonly hwm: string;

  constructor(readonly root: string) {
    this.config = path.join(root, 'config.json');
    this.log = path.join(root, 'team.log');
    this.inboxesDir = path.join(root, 'inboxes');
    this.tasksDir = path.join(root, 'tasks');
    this.agentsDir = path.join(root, 'agents');
    this.hwm = path.join(this.tasksDir, '_hwm');
  }

  inbox(agent: string): string {
    return path.join(this.inboxesDir, `${assertAgentName(agent)}.json`);
  }
  rejected(agent: string): string {
    return path.join(this.inboxesDir, `${assertAgentName(agent)}.rejected.jsonl`);
  }
  archive(agent: string): string {
    return path.join(this.inboxesDir, `${assertAgentName(agent)}.archive.jsonl`);
  }
  task(id: string): string {
    return `${this.tasksDir}${path.sep}${assertTaskId(id)}.json`;
  }
  agentDir(agent: string): string {
    return path.join(this.agentsDir, assertAgentName(agent));
  }
  status(agent: string): string {
    return path.join(this.agentDir(agent), 'status.json');
  }
  /** Its spend per model call (the dashboard's chart). */
  spend(agent: string): string {
    return path.join(this.agentDir(agent), 'spend.json');
  }
  output(agent: string): string {
    return path.join(this.agentDir(agent), 'output.log');
  }
  /** The first answer given to each of the agent's approval requests (so a losing answer is told it lost). */
  answers(agent: string): string {
    return path.join(this.agentDir(agent), 'answers.json');
  }
  lease(agent: string): string {
    return path.join(this.agentDir(agent), 'lease');
  }
}
