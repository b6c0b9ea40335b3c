/**
 * Installs and removes thclaws' `PermissionRequest` hook in the user's Claude Code settings
 * (`~/.claude/settings.json`), keeping every other key. Install saves the file's exact text; uninstall puts
 * that text back when the file is still as thclaws left it, else removes only thclaws' entry (someone edited
 * the file since, and their edit is kept).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { claudeDir, thclawsDir, userSettingsFile } from './paths.js';

/** What marks thclaws' own hook among the user's. */
export const HOOK_MARK = 'claude-team hook';

const backupSchema = z.object({ existed: z.boolean(), text: z.string(), installed: z.string() });
const backupFile = (root: string) => path.join(thclawsDir(root), 'settings-before-hooks.json');

type Settings = Record<string, unknown> & { hooks?: Record<string, Array<{ matcher?: string; hooks?: Array<{ command?: string }> }>> };

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
}

function parseSettings(file: string, text: string | undefined): Settings {
  if (text === undefined || !text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it first, nothing changed`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object; nothing changed`);
  return parsed as Settings;
}

async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.thclaws-${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

const isOurs = (h: { command?: string }) => typeof h.command === 'string' && h.command.includes(HOOK_MARK);

export function hasOurHook(s: Settings): boolean {
  return Object.values(s.hooks ?? {}).some((groups) => Array.isArray(groups) && groups.some((g) => (g.hooks ?? []).some(isOurs)));
}

/** Adds the hook; returns a sentence saying what changed. */
export async function installHook(command: string, timeoutSeconds: number, root = claudeDir()): Promise<string> {
  const file = userSettingsFile(root);
  const text = await readText(file);
  const settings = parseSettings(file, text);
  if (hasOurHook(settings)) return `thclaws' PermissionRequest hook is already in ${file}; nothing changed`;
  const hooks = { ...settings.hooks };
  hooks.PermissionRequest = [...(hooks.PermissionRequest ?? []), { matcher: '*', hooks: [{ type: 'command', command, timeout: timeoutSeconds } as { command: string }] }];
  const installed = `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`;
  await mkdir(thclawsDir(root), { recursive: true, mode: 0o700 });
  await writeAtomic(backupFile(root), JSON.stringify({ existed: text !== undefined, text: text ?? '', installed }));
  await writeAtomic(file, installed);
  return `added a PermissionRequest hook to ${file}: ${command} (undo: thclaws claude-team hooks uninstall)`;
}

function withoutOurs(s: Settings): Settings {
  const hooks: NonNullable<Settings['hooks']> = {};
  for (const [event, groups] of Object.entries(s.hooks ?? {})) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups.map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isOurs(h)) })).filter((g, i) => g.hooks.length > 0 || !(groups[i]!.hooks ?? []).some(isOurs));
    if (kept.length) hooks[event] = kept;
  }
  const { hooks: _drop, ...rest } = s;
  return Object.keys(hooks).length ? { ...rest, hooks } : rest;
}

/** Removes the hook; returns a sentence saying what changed. */
export async function uninstallHook(root = claudeDir()): Promise<string> {
  const file = userSettingsFile(root);
  const text = await readText(file);
  const backupText = await readText(backupFile(root));
  const backup = backupText === undefined ? undefined : backupSchema.safeParse(JSON.parse(backupText)).data;
  if (backup && text === backup.installed) {
    if (backup.existed) await writeAtomic(file, backup.text);
    else await rm(file, { force: true });
    await rm(backupFile(root), { force: true });
    return backup.existed ? `restored ${file} to what it was before the install` : `removed ${file} (there was none before the install)`;
  }
  const settings = parseSettings(file, text);
  if (!hasOurHook(settings)) {
    await rm(backupFile(root), { force: true });
    return `no thclaws hook in ${file}; nothing changed`;
  }
  await writeAtomic(file, `${JSON.stringify(withoutOurs(settings), null, 2)}\n`);
  await rm(backupFile(root), { force: true });
  return `removed thclaws' hook from ${file} (the file was edited since the install: the other changes are kept)`;
}
