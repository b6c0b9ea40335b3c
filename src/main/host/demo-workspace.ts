import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitMust } from '../../core/git.js';
import { DASHBOARD_PROMPT, teamScript } from './demo-team.js';
import { thclawsBin, type TeamHostOptions } from './team-host.js';

export interface DemoWorkspace {
  workspace: string;
  /** The demo's own config dir (its folder trust); never the person's. */
  configHome: string;
  /** TeamHost options: the lead on the scripted provider with the demo prompt, in this workspace. */
  hostOptions: TeamHostOptions;
  remove(): void;
}

/**
 * A throw-away git workspace for the live demo: the team settings (host mode, scripted provider; frontend and
 * qa may run their Bash, so exactly one permission request — backend's — and one plan — frontend's — reach the
 * person; the merge panel's checks), and a config dir of its own that trusts this workspace, so no folder-trust prompt blocks the lead
 * and the person's own config is never touched.
 */
export function prepareDemoWorkspace(): DemoWorkspace {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demo-')));
  const configHome = `${workspace}-config`;
  const git = (...args: string[]) => gitMust(workspace, args);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'demo@thclaws.local');
  git('config', 'user.name', 'thclaws demo');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# demo project\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  fs.mkdirSync(path.join(workspace, '.thclaws'));
  // The lead may use its team tools without asking (it still asks before Write/Edit/Bash).
  const lead = ['TeamCreate', 'TeamTaskCreate', 'SpawnTeammate', 'TeamMerge'];
  // The person lands the work from the merge panel: these checks run on the integrated branches first.
  const checks = ["test -f api/server.js && test -f ui/index.html && echo 'check: the API and the UI are both there'", "grep -q health api/server.js && grep -q /health ui/index.html && echo 'check: the UI calls the API it gets'"];
  const settings = { teamEnabled: true, teammateMode: 'host', provider: 'scripted', checks, permissions: { allow: lead }, teammates: { frontend: { allow: ['Bash'] }, qa: { allow: ['Bash'] } } };
  fs.writeFileSync(path.join(workspace, '.thclaws', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  fs.mkdirSync(path.join(configHome, 'thclaws'), { recursive: true });
  fs.writeFileSync(path.join(configHome, 'thclaws', 'trusted-folders.json'), JSON.stringify({ folders: [workspace] }));
  const script = path.join(configHome, 'demo-script.json');
  fs.writeFileSync(script, JSON.stringify(teamScript(true)));
  return {
    workspace,
    configHome,
    hostOptions: {
      workspace,
      startLead: true,
      leadArgv: [thclawsBin(), '--script', script],
      leadPrompt: DASHBOARD_PROMPT,
      demo: true,
      // No key reaches the demo's agents: it runs on the scripted provider whatever the person has set.
      env: { XDG_CONFIG_HOME: configHome, ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' },
    },
    remove: () => {
      fs.rmSync(workspace, { recursive: true, force: true });
      fs.rmSync(configHome, { recursive: true, force: true });
    },
  };
}
