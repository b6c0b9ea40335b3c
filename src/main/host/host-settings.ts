/**
 * The project's settings as the dashboard shows them: the ones last read (the model a member not running yet
 * will get), whether a change needs the lead restarted, and the agents' sandbox under them.
 */
import type { HostEvent, SandboxView, SettingsView } from '../../contract/api.js';
import { workspaceSandboxStatus } from '../../core/sandbox/workspace-status.js';
import { ProjectSettingsFile } from './settings-file.js';
import { effectiveMode, sandboxView, type ModelSettings } from './views.js';
import { agentsDir, loadAgentDefs } from '../../core/agent/agent-defs.js';
import { modelChoices } from './budget-feed.js';
import { loadSettings } from '../../core/agent/settings.js';
import { LOCAL_HOST } from '../../core/teams/remote-placement.js';

export class HostSettings {
  readonly file: ProjectSettingsFile;
  private shown: SettingsView | null = null;
  private definitions: Record<string, string> = {};
  private sandbox: SandboxView = { state: 'checking', text: 'sandbox: checking', fix: null };
  private teamEnabledAtLeadStart: boolean | null = null;

  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly broadcast: (ev: HostEvent) => void,
    private readonly closed: () => boolean,
  ) {
    this.file = new ProjectSettingsFile(workspace);
  }

  /** Read now (defaults for a missing or broken file), with the agent definitions' models beside them. */
  read(): SettingsView {
    this.definitions = definitionModels(this.workspace);
    return (this.shown = this.file.readOrDefaults());
  }

  /** What a member view needs to show the model a member not running yet will get. */
  get models(): ModelSettings {
    return { ...this.last, definitions: this.definitions };
  }

  /** The ones last read: a member view is built every tick, the file is not read for each. */
  get last(): SettingsView {
    return (this.shown ??= this.read());
  }

  /** The lead starts with these: changing teamEnabled later needs a restart. */
  leadStarted(): void {
    this.teamEnabledAtLeadStart = this.read().teamEnabled;
  }

  private restartNeeded(): boolean {
    return this.teamEnabledAtLeadStart !== null && this.read().teamEnabled !== this.teamEnabledAtLeadStart;
  }

  async patch(patch: unknown): Promise<SettingsView> {
    const next = (this.shown = await this.file.patch(patch));
    this.broadcast(this.event(next));
    return next;
  }

  event(settings = this.read()): HostEvent {
    return { type: 'settings', settings, restart_needed: this.restartNeeded(), effective_mode: effectiveMode(settings.teammateMode), models: modelChoices(this.workspace, this.env), hosts: hostNames(this.workspace, this.env) };
  }

  sandboxEvent(): HostEvent {
    return { type: 'sandbox', sandbox: this.sandbox };
  }

  /** The agents' sandbox as they will get it here (settings layers, then the one probe per process). */
  async refreshSandbox(): Promise<SandboxView> {
    const next = sandboxView(await workspaceSandboxStatus(this.workspace, this.env));
    if (JSON.stringify(next) !== JSON.stringify(this.sandbox) && !this.closed()) {
      this.sandbox = next;
      this.broadcast(this.sandboxEvent());
    }
    return this.sandbox;
  }
}

/** Each agent definition's model by its name (`.thclaws/agents/*.md`); broken files are the agent's to report. */
function definitionModels(workspace: string): Record<string, string> {
  return Object.fromEntries(loadAgentDefs(agentsDir(workspace)).defs.flatMap((d) => (d.model ? [[d.name, d.model]] : [])));
}

/**
 * The user's hosts a member may be placed on (names only; a broken settings file offers none, as the runtime
 * refuses it). Not one named "local": that name is this machine wherever a host is named (remote-placement.ts).
 */
function hostNames(workspace: string, env: NodeJS.ProcessEnv): string[] {
  try {
    return Object.keys(loadSettings(workspace, env).settings.hosts).filter((h) => h !== LOCAL_HOST).slice(0, 256);
  } catch {
    return [];
  }
}
