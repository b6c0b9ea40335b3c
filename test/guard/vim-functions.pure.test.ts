/**
 * vim commands that reach the shell or the file system without a `!` (session-4 break round): vim script's
 * system()/job functions, exe of a `!` string, file functions (delete(), writefile(), rename()) and the
 * interface languages (:lua, :py3, :perl, :ruby). Each was allowed for the lead before, with no file named.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const lead = (cmd: string) => checkCommand('lead', cmd, leadCtx);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);

describe('vim functions and languages that run commands or write files', () => {
  it('system(), systemlist(), job_start() and exe "!…" strings are checked as shell commands', () => {
    expect(reasonOf(lead(`vim -es -c 'call system("rm -rf src")' -c qa`))).toMatch(/recursively remove files \(from a vim shell escape\)\.$/);
    expect(reasonOf(lead(`vim -es -c "call systemlist('rm -rf src')" -c qa`))).toMatch(/recursively remove files \(from a vim shell escape\)\.$/);
    expect(reasonOf(lead(`nvim --headless -c 'call jobstart(["rm", "-rf", "src"])' -c qa`))).toMatch(/^team lead may not run/);
    expect(reasonOf(lead(`vim -c 'exe "!rm -rf src"' -c qa`))).toMatch(/recursively remove files \(from a vim shell escape\)\.$/);
    expect(reasonOf(tm(`vim -es -c 'call system("rm -rf ../bob")' -c qa`))).toMatch(/write into another teammate's worktree/);
    expect(lead(`vim -es -c 'call system("git status")' -c qa`)).toEqual({ allowed: true });
  });

  it('delete(), writefile(), rename() name files vim writes', () => {
    expect(reasonOf(lead(`vim -es -c 'call delete("src", "rf")' -c qa`))).toMatch(/edit src non-interactively with vim/);
    expect(reasonOf(lead(`vim -es -c 'call writefile(["x"], "src/a.ts")' -c qa`))).toMatch(/edit src\/a\.ts non-interactively with vim/);
    expect(reasonOf(tm(`vim -es -c "call delete('../bob', 'rf')" -c qa`))).toMatch(/write into another teammate's worktree \(\/ws\/\.worktrees\/bob\)/);
    expect(lead(`vim -es -c 'call writefile(["x"], "/tmp/out")' -c qa`)).toEqual({ allowed: true });
  });

  it('code in an interface language (:lua, :py3, :perl, :ruby) is not read: refused to the lead, and to a teammate beside a destructive verb', () => {
    expect(reasonOf(lead(`nvim --headless -c 'lua os.remove("src/a.ts")' -c qa`))).toMatch(/run lua code inside nvim/);
    expect(reasonOf(lead(`vim -c 'py3 import shutil; shutil.rmtree("src")' -c qa`))).toMatch(/run py3 code inside vim/);
    expect(reasonOf(tm(`nvim --headless -c 'lua os.execute("rm -rf ../bob")' -c qa`))).toMatch(/^teammate may not run/);
    expect(tm(`nvim --headless -c 'lua print(1)' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -R -c 'set ft=lua' src/a.ts`)).toEqual({ allowed: true });
  });
});
