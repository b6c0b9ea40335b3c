import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { addAllowRule, addTeammateAllowRule, loadSettings } from './settings.js';
import { trustFolder } from './trust.js';

describe('settings', () => {
  let home: string;
  let project: string;
  let cleanups: Array<() => void>;
  const env = () => ({ HOME: home });
  const write = (file: string, obj: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof obj === 'string' ? obj : JSON.stringify(obj));
  };

  beforeEach(() => {
    const a = tempDir();
    const b = tempDir();
    home = a.dir;
    project = b.dir;
    cleanups = [a.cleanup, b.cleanup];
  });
  afterEach(() => cleanups.forEach((c) => c()));

  it('defaults when no file exists', () => {
    const { settings, sources } = loadSettings(project, env());
    expect(sources).toEqual([]);
    expect(settings).toMatchObject({ teamEnabled: false, provider: 'anthropic', permissionMode: 'ask', maxIterations: 50 });
    expect(settings.retry).toEqual({ maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 });
  });

  it('project overrides user; retry merges per key; unknown keys are kept', () => {
    write(path.join(home, '.config/thclaws/settings.json'), { model: 'user-model', teamEnabled: true, retry: { maxRetries: 9 } });
    write(path.join(project, '.thclaws/settings.json'), { model: 'project-model', retry: { baseDelayMs: 5 }, futureKey: { a: 1 } });
    const { settings, sources } = loadSettings(project, env());
    expect(sources).toHaveLength(2);
    expect(settings.model).toBe('project-model');
    expect(settings.teamEnabled).toBe(true);
    expect(settings.retry).toEqual({ maxRetries: 9, baseDelayMs: 5, maxDelayMs: 30_000 });
    expect((settings as Record<string, unknown>).futureKey).toEqual({ a: 1 });
  });

  it('team settings merge per key across layers; defaults when absent', () => {
    expect(loadSettings(project, env()).settings.team).toEqual({ minFreeMemoryMb: 256, updateAfterLanding: false });
    write(path.join(home, '.config/thclaws/settings.json'), { team: { minFreeMemoryMb: 1024 } });
    write(path.join(project, '.thclaws/settings.json'), { team: { updateAfterLanding: true } });
    expect(loadSettings(project, env()).settings.team).toEqual({ minFreeMemoryMb: 1024, updateAfterLanding: true });
    write(path.join(project, '.thclaws/settings.json'), { team: { minFreeMemoryMb: -1 } });
    expect(() => loadSettings(project, env())).toThrow(/key "team\.minFreeMemoryMb"/);
  });

  it('names the file and the key of a bad value', () => {
    const file = path.join(project, '.thclaws/settings.json');
    write(file, { teammateMode: 'tmuxx' });
    expect(() => loadSettings(project, env())).toThrow(`invalid settings file ${file}: key "teammateMode"`);
    write(file, { retry: { maxRetries: -1 } });
    expect(() => loadSettings(project, env())).toThrow(/key "retry\.maxRetries"/);
    // Past a timer's range Node fires at once: every request would be denied as timed out immediately.
    write(file, { approvalTimeoutMs: 3_000_000_000 });
    expect(() => loadSettings(project, env())).toThrow(/key "approvalTimeoutMs"/);
  });

  it('reports invalid JSON and non-objects', () => {
    const file = path.join(project, '.thclaws/settings.json');
    write(file, '{ nope');
    expect(() => loadSettings(project, env())).toThrow(/^invalid settings file .*settings\.json: /);
    write(file, '[1]');
    expect(() => loadSettings(project, env())).toThrow(/expected a JSON object/);
  });

  it("teammates' permissions: ask by default, rules add up across layers, and an untrusted folder cannot loosen them", async () => {
    expect(loadSettings(project, env()).settings).toMatchObject({ teammatePermissionMode: 'ask', teammateAllow: [], teammates: {}, permissionApprover: 'user', planApprover: 'user', approvalTimeoutMs: 600_000 });
    write(path.join(project, '.thclaws/settings.json'), { teammatePermissionMode: 'auto', teammateAllow: ['Bash(make:*)'], teammates: { alice: { permissionMode: 'auto', allow: ['Bash(ls:*)'], planModeRequired: true } } });
    await addTeammateAllowRule(project, 'Bash(npm test:*)', 'alice');
    await addTeammateAllowRule(project, 'Bash(git status:*)', null);
    const trusted = loadSettings(project, env(), { trusted: true }).settings;
    expect(trusted.teammatePermissionMode).toBe('auto');
    expect(trusted.teammateAllow).toEqual(['Bash(make:*)', 'Bash(git status:*)']);
    expect(trusted.teammates.alice).toMatchObject({ permissionMode: 'auto', allow: ['Bash(ls:*)', 'Bash(npm test:*)'], planModeRequired: true });
    const untrusted = loadSettings(project, env(), { trusted: false });
    expect(untrusted.settings.teammatePermissionMode).toBe('ask');
    expect(untrusted.settings.teammateAllow).toEqual([]);
    expect(untrusted.settings.teammates.alice?.permissionMode).toBeUndefined();
    expect(untrusted.settings.teammates.alice?.allow).toBeUndefined();
    expect(untrusted.settings.teammates.alice?.planModeRequired).toBe(true);
    expect(untrusted.ignored.join('\n')).toMatch(/teammatePermissionMode[\s\S]*teammateAllow[\s\S]*teammates\.alice\.permissionMode[\s\S]*teammates\.alice\.allow/);
  });

  it('project keys that loosen permissions need folder trust; allow lists of all layers add up', async () => {
    write(path.join(home, '.config/thclaws/settings.json'), { permissions: { allow: ['Read'] } });
    write(path.join(project, '.thclaws/settings.json'), { permissionMode: 'auto', permissions: { allow: ['Bash'] }, maxIterations: 7 });
    write(path.join(project, '.thclaws/settings.local.json'), { permissions: { allow: ['Write(src/)'] } });
    const untrusted = loadSettings(project, env());
    expect(untrusted.settings).toMatchObject({ permissionMode: 'ask', maxIterations: 7, permissions: { allow: ['Read'] } });
    expect(untrusted.ignored).toEqual([
      `${path.join(project, '.thclaws/settings.json')}: permissionMode`,
      `${path.join(project, '.thclaws/settings.json')}: permissions.allow`,
      `${path.join(project, '.thclaws/settings.local.json')}: permissions.allow`,
    ]);
    trustFolder(project, env());
    const trusted = loadSettings(project, env());
    expect(trusted.ignored).toEqual([]);
    expect(trusted.settings).toMatchObject({ permissionMode: 'auto', permissions: { allow: ['Read', 'Bash', 'Write(src/)'] } });
    await addAllowRule(project, 'Bash(npm test:*)');
    expect(loadSettings(project, env()).settings.permissions.allow).toEqual(['Read', 'Bash', 'Write(src/)', 'Bash(npm test:*)']);
  });

});
