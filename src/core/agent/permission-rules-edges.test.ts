/** Edges of rule matching a mutation run showed untested: rule syntax, spacing, exact-file rules, command names. */
import { describe, expect, it } from 'vitest';
import { restrictiveRuleMatches, ruleFor, ruleMatches } from './permission-rules.js';
import type { PermissionRequest } from './types.js';

const scope = { cwd: '/nonexistent-root/p', projectRoot: '/nonexistent-root/p' };
const bash = (command: string): PermissionRequest => ({ tool: 'Bash', input: { command }, summary: command });
const write = (p: string): PermissionRequest => ({ tool: 'Write', input: { path: p }, summary: p });

describe('rule syntax', () => {
  it('a rule is the whole text: a tool name from its first character, an argument closing at the end', () => {
    for (const match of [ruleMatches, restrictiveRuleMatches]) {
      expect(match('-Bash', bash('ls'), scope)).toBe(false);
      expect(match('Bash(ls) extra', bash('ls'), scope)).toBe(false);
      expect(match(' Bash(ls) ', bash('ls'), scope)).toBe(true);
      expect(match('Bash(*)', bash('ls'), scope)).toBe(true);
    }
  });

  it('spaces inside a rule or a command do not change what it means', () => {
    expect(ruleFor(bash('npm   test'), scope)).toBe('Bash(npm test:*)');
    expect(ruleMatches('Bash( make )', bash('make'), scope)).toBe(true);
    expect(ruleMatches('Bash(npm test :*)', bash('npm test x'), scope)).toBe(true);
  });

  it('a prefix rule never matches a Bash call without a command', () => {
    expect(ruleMatches('Bash(ls:*)', { tool: 'Bash', input: null, summary: '' }, scope)).toBe(false);
  });

  it('a command field on another tool does not make it a Bash rule', () => {
    expect(ruleFor({ tool: 'Write', input: { path: 'src/a.ts', command: 'npm test' }, summary: '' }, scope)).toBe('Write(src/)');
  });
});

describe('path rules', () => {
  it('a rule for one file matches that file only, a folder rule what is below it', () => {
    expect(ruleMatches('Write(src/a.ts)', write('src/a.ts'), scope)).toBe(true);
    expect(ruleMatches('Write(src/a.ts)', write('src/a.ts/x'), scope)).toBe(false);
    expect(ruleMatches('Write(src/)', write('src/a.ts/x'), scope)).toBe(true);
    expect(ruleMatches('Write(src/**)', write('src/deep/a.ts'), scope)).toBe(true);
  });
});

describe('ask and deny rules: command names', () => {
  it('the program is matched by its name (a path to it, any case in the rule), later words exactly', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('/usr/bin/git push origin'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(Git push:*)', bash('git push'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git ./push'), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git pull'), scope)).toBe(false);
  });

  it('a shell with nothing known on its input could run the rule\'s command', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('sh'), scope)).toBe(true);
  });

  it('a line the parser cannot read falls back to the words between operators, environment words skipped', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash("ls && FOO=1  git   push 'unclosed"), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash("ls && git pull 'unclosed"), scope)).toBe(false);
  });
});
