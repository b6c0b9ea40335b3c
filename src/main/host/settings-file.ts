import fs from 'node:fs';
import path from 'node:path';
import { editSettingsFile } from '../../core/agent/settings.js';
import { defaultSettings, SettingsSchema, settingsLayerSchema, type Settings } from '../../contract/settings-schema.js';
import { SettingsPatchSchema, SettingsViewSchema, type SettingsView } from '../../contract/api.js';

/** The dashboard's part of `.thclaws/settings.json`: read, and patched through the one settings writer (locked), unknown keys kept. */
export class ProjectSettingsFile {
  readonly file: string;

  constructor(workspace: string) {
    this.file = path.join(workspace, '.thclaws', 'settings.json');
  }

  read(): SettingsView {
    return toView(this.readRaw());
  }

  /** The view, or the defaults when the file cannot be read (a view always has settings to show). */
  readOrDefaults(): SettingsView {
    try {
      return this.read();
    } catch {
      return settingsView(defaultSettings());
    }
  }

  async patch(patch: unknown): Promise<SettingsView> {
    const clean = SettingsPatchSchema.parse(patch);
    const raw = await editSettingsFile(this.file, (current) => {
      const next = { ...current, ...clean };
      const check = settingsLayerSchema().safeParse(next);
      if (!check.success) throw new Error(`settings.json would be invalid: ${check.error.issues[0]?.path.join('.')}: ${check.error.issues[0]?.message}`);
      return next;
    });
    return toView(raw);
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

/** The view of a settings object: the schema's defaults for absent keys, as the runtime reads them. */
export function settingsView(settings: Settings): SettingsView {
  return SettingsViewSchema.parse(settings);
}

/** The file as the dashboard shows it; a file the runtime would refuse shows the defaults (the runtime reports it). */
function toView(raw: Record<string, unknown>): SettingsView {
  const s = SettingsSchema.safeParse(raw);
  return settingsView(s.success ? s.data : defaultSettings());
}
