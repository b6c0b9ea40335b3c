/** What one "always" answer may allow: a command prefix, never every program an interpreter or wrapper could run. */
import { describe, expect, it } from 'vitest';
import { ruleFor, ruleMatches } from './permission-rules.js';

const scope = { cwd: '/p', projectRoot: '/p' };
const bash = (command: string) => ({ tool: 'Bash', input: { command }, summary: '' });

describe('"always" on commands that run their arguments', () => {
  it('an interpreter, a shell or a wrapper gets a rule for that exact command', () => {
    for (const c of ["python3 -c 'print(1)'", "sh -c 'ls'", 'bash build.sh', "node -e '1'", 'env FOO=1 make', 'xargs rm', 'sudo ls', 'timeout 5 make', 'npx prettier .']) {
      const rule = ruleFor(bash(c), scope);
      expect(rule, c).toBe(`Bash(${c})`);
    }
  });

  it('a leading option never widens the rule to the bare program', () => {
    expect(ruleFor(bash('git -c core.pager=cat log'), scope)).toBe('Bash(git -c core.pager=cat log)');
    expect(ruleFor(bash('ls -la'), scope)).toBe('Bash(ls -la)');
    // The usual shape is unchanged: program and subcommand, any arguments.
    expect(ruleFor(bash('npm test -- --watch=false'), scope)).toBe('Bash(npm test:*)');
    expect(ruleFor(bash('make'), scope)).toBe('Bash(make:*)');
  });

  it('the stored rule allows what was asked and no other program', () => {
    const rule = ruleFor(bash("python3 -c 'print(1)'"), scope);
    expect(ruleMatches(rule, bash("python3 -c 'print(1)'"), scope)).toBe(true);
    expect(ruleMatches(rule, bash('python3 other.py'), scope)).toBe(false);
    expect(ruleMatches(rule, bash("python3 -c 'print(2)'"), scope)).toBe(false);
  });

  it('a program whose next word is a file or a process gets the exact command: "always" on rm build.log does not allow rm build.log -rf ~', () => {
    for (const c of ['rm build.log', 'mv a b', 'chmod x run.sh', 'curl example.com', 'kill 1234', 'npm exec rimraf', 'pnpm dlx rimraf']) {
      expect(ruleFor(bash(c), scope), c).toBe(`Bash(${c})`);
    }
    const rule = ruleFor(bash('rm build.log'), scope);
    expect(ruleMatches(rule, bash('rm build.log'), scope)).toBe(true);
    expect(ruleMatches(rule, bash('rm build.log -rf /home'), scope)).toBe(false);
    // Prefix rules keep refusing chained, substituted and look-alike commands.
    const npmTest = ruleFor(bash('npm test'), scope);
    expect(npmTest).toBe('Bash(npm test:*)');
    for (const c of ['npm test; rm -rf ~', 'npm testx', 'npm test && rm -rf ~', 'npm test $(rm -rf ~)', 'npm test `rm -rf ~`', 'npm test\nrm -rf ~', 'npm test | sh', 'npm test > ~/.bashrc', 'npm test <(rm -rf ~)']) {
      expect(ruleMatches(npmTest, bash(c), scope), c).toBe(false);
    }
  });

  it('"always" on a write outside the project stores that file alone, never the whole tool', () => {
    const write = (p: string) => ({ tool: 'Write', input: { path: p, content: '' }, summary: '' });
    const rule = ruleFor(write('/tmp/thclaws-outside/scratch.txt'), scope);
    expect(rule).toBe('Write(/tmp/thclaws-outside/scratch.txt)');
    expect(ruleMatches(rule, write('/tmp/thclaws-outside/scratch.txt'), scope)).toBe(true);
    for (const other of ['/tmp/thclaws-outside/other.txt', '/home/someone/.bashrc', '/p/src/a.ts']) expect(ruleMatches(rule, write(other), scope), other).toBe(false);
    // Inside the project the rule is the file's directory, and `..` does not climb out of it.
    const inside = ruleFor(write('src/a/b.ts'), scope);
    expect(inside).toBe('Write(src/a/)');
    expect(ruleMatches(inside, write('src/a/../../../etc/passwd'), scope)).toBe(false);
  });

  it('Claude Code\'s file_path is the path rules decide on (and the old path field still is): never a bare Write', () => {
    for (const key of ['file_path', 'path']) {
      const write = (p: string) => ({ tool: 'Write', input: { [key]: p, content: '' }, summary: '' });
      expect(ruleFor(write('src/a/b.ts'), scope), key).toBe('Write(src/a/)');
      expect(ruleFor(write('/tmp/thclaws-outside/x.txt'), scope), key).toBe('Write(/tmp/thclaws-outside/x.txt)');
      expect(ruleMatches('Write(src/a/)', write('src/a/c.ts'), scope), key).toBe(true);
      expect(ruleMatches('Write(src/a/)', write('/etc/passwd'), scope), key).toBe(false);
    }
  });
});
