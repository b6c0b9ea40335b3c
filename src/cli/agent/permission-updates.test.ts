import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionPermissionChecker } from '../../core/agent/permissions.js';
import { applyPermissionUpdates, PermissionUpdate, ruleString, ruleValue, type PermissionTarget } from './permission-updates.js';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(path.join(os.tmpdir(), 'perm-updates-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function target(c: SessionPermissionChecker, modes: string[] = []): PermissionTarget {
  return {
    addRules: (k, r) => c.addRules(k, r),
    replaceRules: (k, r) => c.replaceRules(k, r),
    removeRules: (k, r) => c.removeRules(k, r),
    setMode: (m) => (m === 'plan' || m === 'acceptEdits' ? (modes.push(m), m) : { refused: `permission mode "${m}" is not supported` }),
    projectRoot: dir,
    env: { XDG_CONFIG_HOME: path.join(dir, 'xdg') },
  };
}
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8'));

describe("the Agent SDK's PermissionUpdate, applied as it says", () => {
  it('session and cliArg stay in memory; userSettings, projectSettings, localSettings are written with their own behaviour', async () => {
    const c = new SessionPermissionChecker('ask', { decide: async () => 'deny' });
    const notes = await applyPermissionUpdates(
      [
        { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'session' },
        { type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'deny', destination: 'cliArg' },
        { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'git push:*' }], behavior: 'ask', destination: 'localSettings' },
        { type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'projectSettings' },
        { type: 'addRules', rules: [{ toolName: 'WebFetch' }], behavior: 'deny', destination: 'userSettings' },
      ],
      target(c),
    );
    expect(notes).toEqual([]);
    expect(c.rulesOf('allow')).toEqual(['Bash(npm test:*)', 'Read']);
    expect(c.rulesOf('deny')).toEqual(['Write', 'WebFetch']);
    expect(c.rulesOf('ask')).toEqual(['Bash(git push:*)']);
    expect(read(path.join(dir, '.thclaws/settings.local.json'))).toEqual({ permissions: { ask: ['Bash(git push:*)'] } });
    expect(read(path.join(dir, '.thclaws/settings.json'))).toEqual({ permissions: { allow: ['Read'] } });
    expect(read(path.join(dir, 'xdg/thclaws/settings.json'))).toEqual({ permissions: { deny: ['WebFetch'] } });
  });

  it('replaceRules and removeRules edit the file they name and keep its other keys; setMode switches; directories are refused by name', async () => {
    mkdirSync(path.join(dir, '.thclaws'));
    const file = path.join(dir, '.thclaws/settings.local.json');
    writeFileSync(file, JSON.stringify({ model: 'm', permissions: { allow: ['Bash(ls)', 'Edit'], deny: ['Bash(rm:*)'] } }));
    const c = new SessionPermissionChecker('ask', { decide: async () => 'deny' }, { rules: ['Bash(ls)', 'Edit'], deny: ['Bash(rm:*)'] });
    const modes: string[] = [];
    const notes = await applyPermissionUpdates(
      [
        { type: 'removeRules', rules: [{ toolName: 'Edit' }], behavior: 'allow', destination: 'localSettings' },
        { type: 'replaceRules', rules: [{ toolName: 'Bash', ruleContent: 'rm -rf:*' }], behavior: 'deny', destination: 'localSettings' },
        { type: 'setMode', mode: 'plan', destination: 'session' },
        { type: 'setMode', mode: 'dontAsk', destination: 'session' },
        { type: 'addDirectories', directories: ['/x'], destination: 'session' },
        { type: 'removeDirectories', directories: ['/y'], destination: 'localSettings' },
      ],
      target(c, modes),
    );
    expect(read(file)).toEqual({ model: 'm', permissions: { allow: ['Bash(ls)'], deny: ['Bash(rm -rf:*)'] } });
    expect(c.rulesOf('allow')).toEqual(['Bash(ls)']);
    expect(c.rulesOf('deny')).toEqual(['Bash(rm:*)', 'Bash(rm -rf:*)']);
    expect(modes).toEqual(['plan']);
    expect(notes).toEqual(['setMode: permission mode "dontAsk" is not supported', 'addDirectories is not supported by thclaws; directories were not changed', 'removeDirectories is not supported by thclaws; directories were not changed']);
    expect(existsSync(path.join(dir, '.thclaws/settings.json'))).toBe(false);
  });

  it('rule values round-trip with our rule strings; a rule value that could smuggle a second rule is not a PermissionUpdate', () => {
    expect(ruleValue('Bash(npm test:*)')).toEqual({ toolName: 'Bash', ruleContent: 'npm test:*' });
    expect(ruleValue('Write')).toEqual({ toolName: 'Write' });
    expect(ruleString(ruleValue('Write(src/)'))).toBe('Write(src/)');
    expect(PermissionUpdate.safeParse({ type: 'addRules', rules: [{ toolName: 'Bash(x)' }], behavior: 'allow', destination: 'session' }).success).toBe(false);
    expect(PermissionUpdate.safeParse({ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'a\nb' }], behavior: 'allow', destination: 'session' }).success).toBe(false);
    expect(PermissionUpdate.safeParse({ type: 'addRules', rules: [], behavior: 'allow', destination: 'elsewhere' }).success).toBe(false);
  });
});
