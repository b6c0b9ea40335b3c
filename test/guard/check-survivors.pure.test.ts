/**
 * check.ts cases aimed at what StrykerJS left alive in its first run of the file (session 4): the echo flags
 * dropped from a script piped into a shell, interpreters reached through another command's argv.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx } from './fixtures.js';

const lead = (cmd: string) => checkCommand('lead', cmd, leadCtx);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);
const RM_SRC = 'team lead may not run `rm -rf src`: it would recursively remove files.';

describe('check.ts: echo flags and argv interpreters (session 4)', () => {
  it('only whole -n/-e/-E words are dropped from an echo piped into a shell: a clustered -ne too, a word ending in -n kept', () => {
    expect(reasonOf(lead("echo -ne 'rm -rf src' | sh"))).toBe(RM_SRC);
    expect(reasonOf(lead("echo -En 'rm -rf src' | sh"))).toBe(RM_SRC);
    expect(reasonOf(lead('echo rm -rf src-n | sh'))).toBe('team lead may not run `rm -rf src-n`: it would recursively remove files.');
  });

  it('blanks in an IFS value are dropped from its separators, the rest still split', () => {
    expect(lead("IFS=', '; c=rm,-rf,src; $c")).toMatchObject({ allowed: false, reason: expect.stringMatching(/built at run time, in a command that carries a destructive verb/) });
  });

  it('an interpreter run by find -exec or git bisect run (no stdin of its own) is judged by its code', () => {
    expect(reasonOf(lead(`find . -exec python3 -c "import shutil; shutil.rmtree('src')" \\;`))).toBe(
      "team lead may not run `find . -exec python3 -c \"import shutil; shutil.rmtree('src')\" \\;`: it would delete a directory tree from an interpreter one-liner.",
    );
    expect(lead(`find . -exec python3 -c "print(1)" \\;`)).toEqual({ allowed: true });
    expect(reasonOf(lead(`git bisect run python3 -c "import shutil; shutil.rmtree('src')"`))).toMatch(/delete a directory tree from an interpreter one-liner \(through git bisect run\)\.$/);
  });
});
