/**
 * The Agent SDK's `updatedPermissions` (its `PermissionUpdate` type), applied as the answer says: rules with
 * their own behaviour (allow, ask or deny), a mode switch, each kept in memory for a `session`/`cliArg`
 * destination and also written to the settings file a `userSettings`/`projectSettings`/`localSettings`
 * destination names. Directories are not supported (refused by name on stderr; the call's own answer holds).
 */
import { z } from 'zod';
import type { PermissionMode, RuleKind } from '../../core/agent/permissions.js';
import { editPermissionRules, localSettingsPath, projectSettingsPath, userSettingsPath } from '../../core/agent/settings.js';

const Destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg']);
/** A tool name (`Bash`, `mcp__srv__tool`) and the part inside a rule's parentheses (`npm test:*`). */
const RuleValue = z.object({
  toolName: z.string().regex(/^[\w*.-]{1,200}$/),
  ruleContent: z.string().max(2000).regex(/^[^\n\r\0]*$/).optional(),
});
const Rules = z.object({ rules: z.array(RuleValue).max(100), behavior: z.enum(['allow', 'deny', 'ask']), destination: Destination });

export const PermissionUpdate = z.discriminatedUnion('type', [
  Rules.extend({ type: z.literal('addRules') }),
  Rules.extend({ type: z.literal('replaceRules') }),
  Rules.extend({ type: z.literal('removeRules') }),
  z.object({ type: z.literal('setMode'), mode: z.string(), destination: Destination }),
  z.object({ type: z.literal('addDirectories'), directories: z.array(z.string()), destination: Destination }),
  z.object({ type: z.literal('removeDirectories'), directories: z.array(z.string()), destination: Destination }),
]);
export type PermissionUpdate = z.infer<typeof PermissionUpdate>;

/** `{ toolName: 'Bash', ruleContent: 'npm test:*' }` ⇄ `Bash(npm test:*)` (our rules are Claude Code's strings). */
export function ruleString(v: { toolName: string; ruleContent?: string | undefined }): string {
  return v.ruleContent === undefined ? v.toolName : `${v.toolName}(${v.ruleContent})`;
}

export function ruleValue(rule: string): { toolName: string; ruleContent?: string } {
  const m = /^([^(]+)\((.*)\)$/s.exec(rule);
  return m ? { toolName: m[1]!, ruleContent: m[2]! } : { toolName: rule };
}

/** What the updates act on: the session's checker and mode, and where settings files live. */
export interface PermissionTarget {
  addRules(kind: RuleKind, rules: readonly string[]): void;
  replaceRules(kind: RuleKind, rules: readonly string[]): void;
  removeRules(kind: RuleKind, rules: readonly string[]): void;
  /** Switches the session's mode; a string result refuses the mode (unsupported). */
  setMode(mode: string): PermissionMode | { refused: string };
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
}

function settingsFile(dest: PermissionUpdate['destination'], t: PermissionTarget): string | undefined {
  if (dest === 'userSettings') return userSettingsPath(t.env);
  if (dest === 'projectSettings') return projectSettingsPath(t.projectRoot);
  if (dest === 'localSettings') return localSettingsPath(t.projectRoot);
  return undefined;
}

/** Applies each update in order; returns one line per part that was not applied (for stderr). */
export async function applyPermissionUpdates(updates: readonly PermissionUpdate[], t: PermissionTarget): Promise<string[]> {
  const notes: string[] = [];
  for (const u of updates) {
    if (u.type === 'addDirectories' || u.type === 'removeDirectories') {
      notes.push(`${u.type} is not supported by thclaws; directories were not changed`);
      continue;
    }
    if (u.type === 'setMode') {
      const r = t.setMode(u.mode);
      if (typeof r === 'object') notes.push(`setMode: ${r.refused}`);
      else if (settingsFile(u.destination, t)) notes.push(`setMode to ${u.destination} is applied to this session only (thclaws keeps the mode in its own settings key)`);
      continue;
    }
    const rules = u.rules.map(ruleString);
    const kind = u.behavior;
    if (u.type === 'replaceRules') t.replaceRules(kind, rules);
    else if (u.type === 'removeRules') t.removeRules(kind, rules);
    else t.addRules(kind, rules);
    const file = settingsFile(u.destination, t);
    if (!file) continue;
    await editPermissionRules(file, kind, (list) => {
      if (u.type === 'addRules') return [...list, ...rules.filter((r) => !list.includes(r))];
      if (u.type === 'removeRules') return list.filter((r) => typeof r !== 'string' || !rules.includes(r));
      return rules;
    });
  }
  return notes;
}
