/**
 * editors.ts survivors of its first own Stryker run (session 5): vim's option scan at the edges (a value-taking
 * option last, or followed by an option word), blank lines on stdin, where vim's `!` shell prefix may stand, the
 * flags of vim's file functions, and the label of an interface language's refusal.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const lead = (cmd: string) => checkCommand('lead', cmd, leadCtx);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);
const edits = (file: string) => new RegExp(`it would edit ${file.replace(/[./]/g, '\\$&')} non-interactively with vim`);

describe('vim options at the edges of the argv', () => {
  it('-c takes the next word whatever it is: `-c -R` runs the command "-R", so vim is not read-only', () => {
    expect(reasonOf(lead('vim -c -R src/a.ts'))).toMatch(edits('src/a.ts'));
  });

  it('-S last sources Session.vim (a command: the files are edited), and gives a verdict, not an exception', () => {
    expect(reasonOf(lead('vim src/a.ts -S'))).toMatch(edits('src/a.ts'));
    expect(lead('vim -S')).toEqual({ allowed: true });
  });

  it('-W always names the script file, a number too; -w names it unless it is a number (the window height)', () => {
    expect(reasonOf(lead('vim -W 5 /tmp/x'))).toMatch(edits('5'));
    expect(reasonOf(lead('vim -w src/k1 /tmp/x'))).toMatch(edits('src/k1'));
    expect(reasonOf(lead('vim -wsrc/k1 /tmp/x'))).toMatch(edits('src/k1'));
    expect(lead('vim -w 5 /tmp/x')).toEqual({ allowed: true });
  });

  it('-w or -i last (vim: "Argument missing") gives a verdict, not an exception', () => {
    expect(lead('vim /tmp/x -w')).toEqual({ allowed: true });
    expect(lead('vim /tmp/x -i')).toEqual({ allowed: true });
  });

  it('blank lines on stdin are no commands: vim reading them edits nothing', () => {
    expect(lead(`vim src/a.ts <<< '   '`)).toEqual({ allowed: true });
    expect(lead(`printf '\\n\\n' | vim src/a.ts`)).toEqual({ allowed: true });
    expect(reasonOf(lead(`vim src/a.ts <<< ':wq'`))).toMatch(edits('src/a.ts'));
  });
});

describe("vim's shell strings: only a leading ! is vim's prefix", () => {
  it('a ! later in the string is part of the shell command', () => {
    // `!src` is a relative path in the workspace (no history expansion in a non-interactive shell).
    expect(reasonOf(lead(`vim -es -c 'call system("rm -rf /tmp/x !src")' -c qa`))).toMatch(/recursively remove files \(from a vim shell escape\)/);
    expect(reasonOf(lead(`vim -es -c 'call system("x!;rm -rf src")' -c qa`))).toMatch(/recursively remove files \(from a vim shell escape\)/);
    // `#` starts a comment: nothing runs (a ! after leading non-blanks is no prefix either).
    expect(lead(`vim -es -c 'call system("#!rm -rf src")' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c 'exe "!rm -rf /tmp/x"' -c qa`)).toEqual({ allowed: true });
  });
});

describe("vim's file functions: the flags are no file names, the file names are", () => {
  it("delete()'s flags ('rf', 'd') name no file", () => {
    expect(lead(`vim -es -c 'call delete("/tmp/x", "rf")' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c "call delete('/tmp/x', 'd')" -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c 'call delete("/tmp/x") | echo ""' -c qa`)).toEqual({ allowed: true });
    expect(tm(`vim -es -c 'call delete("/tmp/x") | echo ""' -c qa`)).toEqual({ allowed: true });
  });

  it('a file name of one or two letters is a written file (was dropped as a flag: allowed before)', () => {
    expect(reasonOf(lead(`vim -es -c 'call writefile(["x"], "db")' -c qa`))).toMatch(edits('db'));
    expect(reasonOf(lead(`vim -es -c 'call delete("ab")' -c qa`))).toMatch(edits('ab'));
    expect(reasonOf(lead(`vim -es -c 'call rename("/tmp/x", "rc")' -c qa`))).toMatch(edits('rc'));
    expect(reasonOf(lead(`vim -es -c 'call mkdir("s", "p")' -c qa`))).toMatch(edits('s'));
    expect(reasonOf(tm(`vim -es -c 'call writefile(["x"], "../bob/db", "a")' -c qa`))).toMatch(/write into another teammate's worktree/);
  });

  it('a quoted ) or comma in an argument is text: the call is split where vim splits it', () => {
    // Data lines after a quoted `)` are still data, not file names.
    expect(lead(`vim -es -c 'call writefile([")", "src/x"], "/tmp/out")' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c "call writefile([')', 'src/x'], '/tmp/out')" -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c 'call delete("/tmp/a,b", "rf")' -c qa`)).toEqual({ allowed: true });
    // `\"` stays inside a double-quoted string; in a single-quoted one a backslash is a plain character.
    expect(lead(`vim -es -c 'call writefile(["\\")", "src/x"], "/tmp/out")' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c "call writefile(['C:\\\\'], '/tmp/out')" -c qa`)).toEqual({ allowed: true });
    expect(reasonOf(lead(`vim -es -c 'call writefile([")"], "src/x")' -c qa`))).toMatch(edits('src/x'));
  });

  it('a call without its ) is read whole: every string in it may be a file', () => {
    expect(reasonOf(lead(`vim -es -c 'call delete("src", "rf"' -c qa`))).toMatch(edits('src'));
  });

  it("writefile()'s and mkdir()'s flags name no file", () => {
    expect(lead(`vim -es -c 'call writefile(["a", "b"], "/tmp/out", "as")' -c qa`)).toEqual({ allowed: true });
    expect(lead(`vim -es -c 'call mkdir("/tmp/d", "p")' -c qa`)).toEqual({ allowed: true });
  });
});

describe('interface languages', () => {
  it("a teammate's interface-language code beside a destructive verb is refused naming the language and the editor", () => {
    expect(reasonOf(tm(`vim -c 'py3 import shutil; shutil.rmtree("x")' -c qa`))).toMatch(/^teammate may not run .*: it would run py3 code inside vim, built at run time/);
  });
});
