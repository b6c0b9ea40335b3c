import fs from 'node:fs';
import path from 'node:path';
import { SettingsSchema } from '../../core/agent/settings.js';
import { withLock } from '../../core/team/lock.js';
import { writeFileAtomic } from '../../core/team/fsio.js';
import { SettingsViewSchema, type SettingsView } from '../../shared/api.js';

const DEFAULT_CAP = 4;

/** The dashboard's part of `.thclaws/settings.json`: read, and patched under the file's lock, unknown keys kept. */
export class ProjectSettingsFile {
  readonly file: string;

  constructor(workspace: string) {
    this.file = path.join(workspace, '.thclaws', 'settings.json');
  }

  read(): SettingsView {
    return toView(this.readRaw());
  }

  async patch(patch: Partial<SettingsView>): Promise<SettingsView> {
    const clean = SettingsViewSchema.partial().parse(patch);
    // The lock is a file of its own: settings.json need not exist (creating it first raced other writers).
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    return withLock(this.file, () => {
      const raw = { ...this.readRaw(), ...clean };
      const check = SettingsSchema.partial().safeParse(raw);
      if (!check.success) throw new Error(`settings.json would be invalid: ${check.error.issues[0]?.path.join('.')}: ${check.error.issues[0]?.message}`);
      writeFileAtomic(this.file, JSON.stringify(raw, null, 2) + '\n');
      return toView(raw);
    });
  }

  private readRaw(): Record<string, unknown> {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`cannot read ${this.file}: ${(err as Error).message}`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`cannot read ${this.file}: not a JSON object`);
    return value as Record<string, unknown>;
  }
}

function toView(raw: Record<string, unknown>): SettingsView {
  const s = SettingsSchema.safeParse(raw);
  const base = s.success ? s.data : SettingsSchema.parse({});
  const roles = raw.roleModels && typeof raw.roleModels === 'object' && !Array.isArray(raw.roleModels) ? (raw.roleModels as Record<string, unknown>) : {};
  const roleModels: Record<string, string> = {};
  for (const [k, v] of Object.entries(roles)) if (typeof v === 'string' && v) roleModels[k] = v;
  const cap = typeof raw.maxLiveTeammates === 'number' && Number.isInteger(raw.maxLiveTeammates) && raw.maxLiveTeammates >= 1 ? Math.min(64, raw.maxLiveTeammates) : DEFAULT_CAP;
  return { teamEnabled: base.teamEnabled, teammateMode: base.teammateMode, model: base.model, roleModels, maxLiveTeammates: cap, autoAllowSandboxedBash: base.autoAllowSandboxedBash };
}
