/** Edges of rule matching a mutation run showed untested: rule syntax, spacing, exact-file rules, command names. */
import { describe, expect, it } from 'vitest';
import { restrictiveRuleMatches, ruleFor, ruleMatches, toolNameMatches } from './permission-rules.js';
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
    // A rule that names the program by its path matches that spelling too.
    expect(restrictiveRuleMatches('Bash(/usr/bin/git push:*)', bash('/usr/bin/git push origin'), scope)).toBe(true);
  });

  it('a shell with nothing known on its input could run the rule\'s command', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('sh'), scope)).toBe(true);
  });

  it('a line the parser cannot read falls back to the words between operators, environment words skipped', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash("ls && FOO=1  git   push 'unclosed"), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash("ls && git pull 'unclosed"), scope)).toBe(false);
  });
});

describe('MCP tool names in rules', () => {
  const mcp = (tool: string): PermissionRequest => ({ tool, input: {}, summary: tool });
  it('`mcp__server` and `mcp__server__*` name every tool of that server, and no other server', () => {
    for (const rule of ['mcp__docs', 'mcp__docs__*']) {
      expect(toolNameMatches(rule, 'mcp__docs__search')).toBe(true);
      expect(ruleMatches(rule, mcp('mcp__docs__search'), scope)).toBe(true);
      expect(toolNameMatches(rule, 'mcp__docsx__search')).toBe(false);
      expect(toolNameMatches(rule, 'mcp__other__search')).toBe(false);
      expect(toolNameMatches(rule, 'x_mcp__docs__search')).toBe(false);
    }
  });

  it('a rule naming one tool is not a server: it covers that tool only', () => {
    expect(toolNameMatches('mcp__docs__search', 'mcp__docs__search')).toBe(true);
    expect(toolNameMatches('mcp__docs__search', 'mcp__docs__search__all')).toBe(false);
    expect(toolNameMatches('mcp__docs__search', 'mcp__docs__fetch')).toBe(false);
  });

  it('only MCP names widen to a family: `a__b` does not cover `a__b__c`', () => {
    expect(toolNameMatches('Tool__group', 'Tool__group__x')).toBe(false);
    expect(ruleMatches('Tool__group', mcp('Tool__group__x'), scope)).toBe(false);
  });
});

describe('ask and deny rules: what counts as covered', () => {
  it('a bare Bash rule covers every command', () => {
    expect(restrictiveRuleMatches('Bash', bash('ls'), scope)).toBe(true);
  });

  it('a word known only at run time (a variable, a glob) could be the rule\'s word', () => {
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git $sub origin'), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('git pu* origin'), scope)).toBe(true);
    // `g="git push"; $g` runs git push: a command named at run time covers even a longer rule.
    expect(restrictiveRuleMatches('Bash(git push:*)', bash('$g'), scope)).toBe(true);
  });

  it('nesting past 8 levels of eval or sh -c counts as covered; 8 levels are still read', () => {
    const nested = (n: number) => `${'eval '.repeat(n)}ls`;
    expect(restrictiveRuleMatches('Bash(git push:*)', bash(nested(8)), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash(nested(9)), scope)).toBe(true);
    expect(restrictiveRuleMatches('Bash(git push:*)', bash(`${'eval '.repeat(8)}git push`), scope)).toBe(true);
  });

  it('the fallback for a line the parser refuses: exact rules by their length, assignments alone kept, empty pieces dropped', () => {
    expect(restrictiveRuleMatches('Bash(git push)', bash("git push origin 'x"), scope)).toBe(false);
    expect(restrictiveRuleMatches('Bash(git push)', bash("ls; git push; 'x"), scope)).toBe(true);
    // A piece made only of assignments is its own command.
    expect(restrictiveRuleMatches('Bash(FOO=1)', bash("ls; FOO=1; 'x"), scope)).toBe(true);
    // `;;` leaves an empty piece between the operators, which is no command at all.
    expect(restrictiveRuleMatches('Bash()', bash("ls ;; 'x"), scope)).toBe(false);
  });
});

describe('path rules: only a trailing /** is a folder', () => {
  it('`**` inside a rule is part of the name, not a wildcard', () => {
    expect(ruleMatches('Write(src/**/a.ts)', write('src/a.ts'), scope)).toBe(false);
    expect(ruleMatches('Write(src/**/a.ts)', write('src/**/a.ts'), scope)).toBe(true);
  });
});
