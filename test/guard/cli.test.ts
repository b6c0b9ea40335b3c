import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { teamRepo } from './git-repo.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/thclaws', 'guard', ...args], { cwd: REPO, encoding: 'utf8' });

describe('thclaws guard (real process)', () => {
  // Builds only when the sources are newer (an unconditional build swapped dist/ under other files' CLIs).
  beforeAll(ensureBuilt, 120_000);

  it('exit 0 and "allowed" for an allowed command', () => {
    const r = run('--role', 'lead', '--', 'git status && ls');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('allowed\n');
  });

  it('exit 3 with reason and advice for a refused one', () => {
    const r = run('--role', 'lead', '--cwd', '/tmp', '--workspace', '/tmp', '--', 'git push origin main --force');
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^refused: team lead may not run `git push origin main --force`: it would rewrite/);
    expect(r.stdout).toMatch(/\nadvice: .*SendMessage/);
  });

  it('--json and teammate role', () => {
    const r = run('--role', 'teammate', '--branch', 'team/alice', '--json', '--', 'git reset main --hard');
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ allowed: false });
  });

  it('exit 2 with one line on stderr for bad usage', () => {
    for (const args of [['--', 'ls'], ['--role', 'boss', '--', 'ls'], ['--role', 'lead']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^thclaws: guard: /);
    }
  });
});

describe('thclaws guard --cwd (real process, run from elsewhere)', () => {
  it('judges the command as run in --cwd, not in the process cwd', () => {
    const repo = teamRepo();
    try {
      // From the repository root, `../bob/bob.txt` is nowhere special; from alice's worktree it is bob's worktree.
      const r = run('--role', 'teammate', '--cwd', repo.alice, '--', 'echo x > ../bob/bob.txt');
      expect(r.stdout).toMatch(/^refused: teammate may not run .*another teammate's worktree/);
      expect(r.status).toBe(3);
      const own = run('--role', 'teammate', '--cwd', repo.alice, '--json', '--', 'echo x > notes.txt');
      expect(JSON.parse(own.stdout)).toEqual({ allowed: true });
    } finally {
      repo.cleanup();
    }
  });
});
