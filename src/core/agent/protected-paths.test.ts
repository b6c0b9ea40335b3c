import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CallbackApprover, DenyApprover, SessionPermissionChecker, type PermissionMode } from './permissions.js';
import { protectedName, protectedWriteRule } from './protected-paths.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'protected-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const signal = new AbortController().signal;
const write = (file_path: string, tool = 'Write') => ({ tool, input: { file_path, content: 'x' }, summary: file_path });

describe('protected paths', () => {
  it('names .git/, .mcp.json, .claude/, .thclaws/, editor and shell config anywhere in the path, case-insensitively; ordinary files are not protected', () => {
    expect(protectedName('.git/config')).toBe('.git/');
    expect(protectedName('sub/.GIT/hooks/pre-commit')).toBe('.git/');
    expect(protectedName('.git')).toBe('.git/');
    expect(protectedName('.mcp.json')).toBe('.mcp.json');
    expect(protectedName('pkg/.envrc')).toBe('.envrc');
    expect(protectedName('.claude/settings.json')).toBe('.claude/');
    expect(protectedName('.vscode/tasks.json')).toBe('.vscode/');
    expect(protectedName('.thclaws/settings.local.json')).toBe('.thclaws/');
    expect(protectedName('src/git/config.ts')).toBeUndefined();
    expect(protectedName('docs/.mcp.json.md')).toBeUndefined();
    expect(protectedName('.mcp.json/inside')).toBeUndefined();
  });

  it('a link into .git/ counts where it lands; only the part below the working directory names a protected place', () => {
    mkdirSync(path.join(root, '.git'), { recursive: true });
    symlinkSync(path.join(root, '.git'), path.join(root, 'notes'));
    expect(protectedWriteRule(write('notes/config'), root)).toBe('Write(.git/**)');
    expect(protectedWriteRule(write('.mcp.json', 'Edit'), root)).toBe('Edit(.mcp.json)');
    expect(protectedWriteRule(write('src/a.ts'), root)).toBeUndefined();
    expect(protectedWriteRule({ tool: 'Read', input: { file_path: '.git/config' }, summary: '' }, root)).toBeUndefined();
    // The project itself living under a dot-directory is not a protected write.
    const nested = path.join(root, '.vscode', 'extensions', 'proj');
    mkdirSync(nested, { recursive: true });
    expect(protectedWriteRule(write('src/a.ts'), nested)).toBeUndefined();
    expect(protectedWriteRule(write('.git/HEAD'), nested)).toBe('Write(.git/**)');
  });

  it('asks in every mode, past allow rules and an earlier "always"; with nobody to ask it is refused; plan still refuses first', async () => {
    for (const mode of ['ask', 'acceptEdits', 'auto'] as PermissionMode[]) {
      const asked: (string | undefined)[] = [];
      const c = new SessionPermissionChecker(mode, new CallbackApprover(async (r) => (asked.push(r.askRule), 'always')), { scope: { cwd: root, projectRoot: root }, rules: ['Write', 'Edit(./)'] });
      expect(await c.check(write('.git/config'), signal)).toEqual({ allowed: true });
      expect(await c.check(write('.git/config'), signal)).toEqual({ allowed: true });
      expect(await c.check(write('src/ok.ts'), signal)).toEqual({ allowed: true });
      // Asked both times ("always" stores nothing for a protected path); the workspace file never asked.
      expect(asked, mode).toEqual(['Write(.git/**)', 'Write(.git/**)']);
      expect(c.allowRules()).toEqual(['Write', 'Edit(./)']);
    }
    const unattended = new SessionPermissionChecker('auto', new DenyApprover(), { scope: { cwd: root, projectRoot: root } });
    expect((await unattended.check(write('.mcp.json'), signal)).allowed).toBe(false);
    const plan = new SessionPermissionChecker('plan', new CallbackApprover(async () => 'allow'), { scope: { cwd: root, projectRoot: root } });
    expect((await plan.check(write('.mcp.json'), signal)).allowed).toBe(false);
  });

  it('a deny rule still wins over a protected path; session rules added later deny and ask like settings rules', async () => {
    let asked = 0;
    const c = new SessionPermissionChecker('auto', new CallbackApprover(async () => (asked++, 'allow')), { scope: { cwd: root, projectRoot: root }, deny: ['Write(.git/)'] });
    expect(c.denial(write('.git/config'))).toMatch(/refused by the rule Write\(\.git\/\)/);
    c.addRules('deny', ['Bash(rm:*)']);
    expect((await c.check({ tool: 'Bash', input: { command: 'rm -rf x' }, summary: '' }, signal)).allowed).toBe(false);
    c.addRules('ask', ['Bash(ls:*)']);
    expect((await c.check({ tool: 'Bash', input: { command: 'ls' }, summary: '' }, signal)).allowed).toBe(true);
    expect(asked).toBe(1);
    c.replaceRules('ask', []);
    c.removeRules('deny', ['Bash(rm:*)']);
    expect(c.rulesOf('deny')).toEqual(['Write(.git/)']);
    expect((await c.check({ tool: 'Bash', input: { command: 'ls' }, summary: '' }, signal)).allowed).toBe(true);
    expect(asked).toBe(1);
  });
});
