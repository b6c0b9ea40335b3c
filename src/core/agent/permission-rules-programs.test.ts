/**
 * "Always" never stores a prefix rule for a program that runs its arguments or whose next word is an operand:
 * each such program, one by one, gets the exact command; an ordinary program with a subcommand gets the prefix.
 */
import { describe, expect, it } from 'vitest';
import { ruleFor } from './permission-rules.js';

const scope = { cwd: '/p', projectRoot: '/p' };
const bash = (command: string) => ({ tool: 'Bash', input: { command }, summary: '' });

const RUN_THEIR_ARGUMENTS = [
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'sudo', 'doas', 'su', 'xargs', 'eval', 'exec', 'command', 'builtin', 'nohup',
  'time', 'timeout', 'nice', 'ionice', 'setsid', 'stdbuf', 'watch', 'strace', 'python', 'python3', 'node', 'perl', 'ruby', 'php',
  'deno', 'bun', 'npx', 'bunx', 'pnpx', 'tsx', 'ts-node', 'lua', 'awk', 'gawk', 'busybox', 'ssh', 'docker', 'podman', 'find',
];
const OPERAND_FIRST = [
  'rm', 'rmdir', 'mv', 'cp', 'ln', 'chmod', 'chown', 'chgrp', 'dd', 'shred', 'truncate', 'tee', 'install', 'rsync', 'scp',
  'kill', 'pkill', 'killall', 'curl', 'wget', 'sed', 'tar', 'unzip', 'zip', 'patch', 'crontab',
];
const RUNNERS = ['npm exec', 'npm x', 'pnpm dlx', 'pnpm exec', 'yarn dlx', 'yarn exec', 'bun x'];

describe('"always" per program', () => {
  it.each(RUN_THEIR_ARGUMENTS)('%s (runs its arguments) gets the exact command', (program) => {
    expect(ruleFor(bash(`${program} run`), scope)).toBe(`Bash(${program} run)`);
  });

  it.each(OPERAND_FIRST)('%s (an operand next) gets the exact command', (program) => {
    expect(ruleFor(bash(`${program} target`), scope)).toBe(`Bash(${program} target)`);
  });

  it.each(RUNNERS)('%s (a package runner) gets the exact command', (runner) => {
    expect(ruleFor(bash(`${runner} tool`), scope)).toBe(`Bash(${runner} tool)`);
  });

  it('a program or subcommand that only looks like one of them gets the usual prefix rule', () => {
    for (const c of ['make build', 'npm execute', 'xnpm exec', 'yarn dlxx', 'nodemon run', 'git rm', 'cargo x']) {
      const [a, b] = c.split(' ');
      expect(ruleFor(bash(c), scope), c).toBe(`Bash(${a} ${b}:*)`);
    }
  });

  it('a subcommand word starts with a letter and holds only word characters, : . -', () => {
    for (const c of ['npm run:build', 'make a.b-c_d']) expect(ruleFor(bash(c), scope), c).toBe(`Bash(${c}:*)`);
    for (const c of ['make 1st', 'make -j', 'make a/b', 'make "x"', 'make x+y']) expect(ruleFor(bash(c), scope), c).toBe(`Bash(${c})`);
  });
});
