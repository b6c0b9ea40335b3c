/**
 * Which model an agent runs: the one rule the spawn (what it names on the child's command line), the agent
 * process (what it finally runs) and the dashboard (what it shows before the process says) all follow.
 */
import { resolveModelAlias } from '../../contract/models.js';
import { roleModelFor } from '../../contract/settings-schema.js';

/** Where an agent's model can come from, most specific first. */
export interface ModelSources {
  /** Named for this run: `--model`, or SpawnTeammate's `model`. */
  requested?: string | null | undefined;
  /** The team member's own (config.json `members[].model`). */
  member?: string | null | undefined;
  /** The member's role, looked up in the settings' `roleModels`. */
  role?: string | null | undefined;
  roleModels?: Readonly<Record<string, string>> | undefined;
  /** The agent definition's front matter (`.thclaws/agents/<name>.md`). */
  definition?: string | null | undefined;
  /** The settings' `model`, the default. */
  settings: string;
}

/** The model, aliases resolved: requested, member, role, definition, settings — the first one set. */
export function chooseModel(s: ModelSources): string {
  return resolveModelAlias(spawnModel(s) ?? (s.definition?.trim() || s.settings));
}

/**
 * What a spawn names with `--model` (aliases resolved): the requested, member or role model; null leaves the
 * choice to the child, which reads its definition and settings (`chooseModel` with `requested` set to this).
 */
export function spawnModel(s: Omit<ModelSources, 'definition' | 'settings'>): string | null {
  const m = s.requested?.trim() || s.member?.trim() || roleModelFor(s.roleModels ?? {}, s.role) || null;
  return m === null ? null : resolveModelAlias(m);
}
