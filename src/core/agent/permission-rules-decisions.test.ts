/** Pure decisions of the permission rules: how a rule is written, matched, and which list wins. */
import { describe, expect, it } from 'vitest';
import { classify, restrictiveRuleMatches, ruleFor, ruleMatches } from './permission-rules.js';
import type { PermissionRequest } from './types.js';

const scope = { cwd: '/nonexistent-root/p/src', projectRoot: '/nonexistent-root/p' };
const bash = (command: string): PermissionRequest => ({ tool: 'Bash', input: { command }, summary: command });
const write = (p: string): PermissionRequest => ({ tool: 'Write', input: { path: p }, summary: p });

describe('ruleFor', () => {
  it('a plain program and subcommand get a prefix rule; one word gets that word', () => {
    expect(ruleFor(bash('npm test'), scope)).toBe('Bash(npm test:*)');
    expect(ruleFor(bash('  npm run build  '), scope)).toBe('Bash(npm run:*)');
    expect(ruleFor(bash('make'), scope)).toBe('Bash(make:*)');
  });
  it('operators, interpreters, operand-first programs and runners get the exact command', () => {
    for (const c of ['npm test && rm -rf x', 'npm test > out', 'python3 x.py', 'rm build.log', 'npm exec foo', 'git -c a=b log', 'ls "x y"']) {
      expect(ruleFor(bash(c), scope), c).toBe(`Bash(${c})`);
    }
  });
  it('a path under the project stores its folder, the root stores ./, outside stores the file', () => {
    expect(ruleFor(write('a.ts'), scope)).toBe('Write(src/)');
    expect(ruleFor(write('/nonexistent-root/p/x.md'), scope)).toBe('Write(./)');
    expect(ruleFor(write('/nonexistent-root/q/x.md'), scope)).toBe('Write(/nonexistent-root/q/x.md)');
    expect(ruleFor({ tool: 'Read', input: {}, summary: '' }, scope)).toBe('Read');
    expect(ruleFor({ tool: 'Bash', input: null, summary: '' }, scope)).toBe('Bash');
  });
});

describe('ruleMatches (allow rules: exact)', () => {
  it('tool name and argument forms', () => {
    expect(ruleMatches('Bash', bash('anything'), scope)).toBe(true);
    expect(ruleMatches('Bash(*)', bash('anything'), scope)).toBe(true);
    expect(ruleMatches(' Bash(npm test:*) ', bash('npm test -- -t x'), scope)).toBe(true);
    expect(ruleMatches('Bash(npm test:*)', bash('npm test'), scope)).toBe(true);
    expect(ruleMatches('Bash(npm test:*)', bash('npm tests'), scope)).toBe(false);
    expect(ruleMatches('Bash(npm test:*)', bash('npm test; rm -rf x'), scope)).toBe(false);
    expect(ruleMatches('Bash(make)', bash('make'), scope)).toBe(true);
    expect(ruleMatches('Bash(make)', bash('make all'), scope)).toBe(false);
    expect(ruleMatches('Write', bash('x'), scope)).toBe(false);
    expect(ruleMatches('not a rule!', bash('x'), scope)).toBe(false);
    expect(ruleMatches('Bash(x)', { tool: 'Bash', input: {}, summary: '' }, scope)).toBe(false);
  });
  it('path rules: a folder with / or /** covers below it, a file only itself', () => {
    expect(ruleMatches('Write(src/)', write('a/b.ts'), scope)).toBe(true);
    expect(ruleMatches('Write(src/**)', write('a/b.ts'), scope)).toBe(true);
    expect(ruleMatches('Write(src/)', write('../x.ts'), scope)).toBe(false);
    expect(ruleMatches('Write(src/a.ts)', write('a.ts'), scope)).toBe(true);
    expect(ruleMatches('Write(src/a.ts)', write('a.tsx'), scope)).toBe(false);
    expect(ruleMatches('Write(src/)', { tool: 'Write', input: {}, summary: '' }, scope)).toBe(false);
  });
});

describe('restrictiveRuleMatches (ask and deny rules: err towards matching)', () => {
  it('any simple command of the line, exact or by prefix; unknown input counts', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('npm test && git push origin'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push)', bash('npm test && git push'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push)', bash('git push origin'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git pull'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', { tool: 'Bash', input: {}, summary: '' }, scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('$g push'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('env FOO=1 git push'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('sh -c "git push"'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('sh -c "git pull"'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('sh -c "$X"'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('bash <<< "git push"'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('bash <<< "git pull"'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('echo x | bash'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('/usr/bin/git push'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git "push"'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git pu*'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Write', bash('x'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(*)', bash('x'), scope)).toBe(true);
  });
  it('text the parser rejects falls back to the words between operators', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git push ((( ; x'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push)', bash('FOO=1 git push ((( '), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git pull ((( '), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push)', bash('git push origin ((('), scope)).toBe(false);
  });
  it("path rules hold relative to the project root and to a teammate's worktree", () => {
    const wt = { ...scope, cwd: '/nonexistent-root/p/.worktrees/alice/src', worktree: '/nonexistent-root/p/.worktrees/alice' };
    expect(restrictiveRuleMatches('Write(src/)', write('a.ts'), wt)).toBe(true);
    expect(restrictiveRuleMatches('Write(src/)', write('a.ts'), { ...wt, worktree: undefined })).toBe(false);
  });
});

describe('classify: deny > ask > allow', () => {
  it('the first list with a matching rule decides', () => {
    const lists = { allow: ['Bash(git push:*)'], ask: ['Bash(git push:*)'], deny: ['Bash(rm:*)'] };
    expect(classify(bash('git push && rm -rf x'), scope, lists)).toEqual({ kind: 'deny', rule: 'Bash(rm:*)' });
    expect(classify(bash('git push'), scope, lists)).toEqual({ kind: 'ask', rule: 'Bash(git push:*)' });
    expect(classify(bash('git push'), scope, { allow: ['Bash(git push:*)'] })).toEqual({ kind: 'allow', rule: 'Bash(git push:*)' });
    expect(classify(bash('git pull'), scope, lists)).toBeUndefined();
    expect(classify(bash('git pull'), scope, {})).toBeUndefined();
  });
});
