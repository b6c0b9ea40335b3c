/**
 * Programs that delete or write by kind (programs.ts) in spellings the corpus does not use: every compressor
 * name and keep flag, option values that are not files, tar/zip/7z member lists, container mounts, awk and
 * sqlite3 escapes, cmake -E tools, vim/ex/ed editing.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const lead = (cmd: string) => checkCommand('lead', cmd, leadCtx);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const allowed = (check: (cmd: string) => { allowed: boolean }, ...cmds: string[]) => {
  for (const cmd of cmds) expect(check(cmd), cmd).toEqual({ allowed: true });
};
const refused = (check: (cmd: string) => { allowed: boolean; reason?: string }, re: RegExp, ...cmds: string[]) => {
  for (const cmd of cmds) expect(check(cmd), cmd).toMatchObject({ allowed: false, reason: expect.stringMatching(re) });
};

describe('compressors', () => {
  it('every compressor that deletes its input by default is one', () => {
    for (const name of ['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'lzma', 'unlzma', 'lzip', 'pigz', 'unpigz', 'pbzip2', 'compress', 'uncompress'])
      refused(lead, new RegExp(`replace files by their compressed form \\(${name}, which deletes the originals\\) /ws/src/a\\.ts inside the workspace`), `${name} src/a.ts`);
  });

  it('each keep, stdout, test, list, help and version flag keeps the input', () => {
    allowed(lead, 'gzip -c src/a.ts', 'gzip -k src/a.ts', 'gzip -t src/a.ts.gz', 'gzip -l src/a.ts.gz', 'gzip -h src', 'gzip -V src',
      'gzip --stdout src/a.ts', 'gzip --to-stdout src/a.ts', 'gzip --keep src/a.ts', 'gzip --test src/a.gz', 'gzip --list src/a.gz', 'gzip --help src', 'gzip --version src',
      'gzip --std src/a.ts');
  });

  it('option values and stdin are not files', () => {
    allowed(lead, 'gzip -S .bak /tmp/a.log', 'gzip --suffix .bak /tmp/a.log', 'zstd --rm --output out.zst /tmp/a', 'xz --threads 2 /tmp/a', 'gzip -', 'gzip');
  });

  it('compressors that keep their input delete it only when asked, in their own spelling', () => {
    allowed(lead, 'zstd -r src', 'unzstd -r src', 'lz4 -r src', 'brotli src/a.ts', 'lzop src/a.ts', 'lzop -j src/a.ts');
    refused(lead, /\(unzstd, which deletes/, 'unzstd --rm src/a.zst');
    refused(lead, /\(lz4, which deletes/, 'lz4 --rm src/a.ts');
    refused(lead, /\(brotli, which deletes/, 'brotli --rm src/a.ts', 'brotli -j src/a.ts');
    refused(lead, /\(lzop, which deletes/, 'lzop -U src/a.ts', 'lzop --delete src/a.ts');
  });

  it('-r / --recursive replaces a whole tree: outside scratch the lead may not', () => {
    allowed(lead, 'gzip /home/u/data.txt');
    refused(lead, /\/home\/u\/data recursively \(outside a scratch directory\)/, 'gzip -r /home/u/data', 'gzip --recursive /home/u/data', 'gzip --rec /home/u/data');
  });
});

describe('awk', () => {
  it('every program text is checked: each -e and --source, not only the last', () => {
    refused(lead, /recursively remove files \(from a shell command inside an awk program\)/,
      `gawk --source 'BEGIN{system("rm -rf src")}'`, `gawk --source='BEGIN{system("rm -rf src")}'`,
      `gawk -e 'BEGIN{system("rm -rf src")}' -e 'BEGIN{x=1}'`, `gawk -e 'BEGIN{x=1}' --source 'BEGIN{system("rm -rf src")}'`,
      `gawk -e 'BEGIN{x=1}' -e 'BEGIN{system("rm -rf src")}'`, `awk -f p.awk -e 'BEGIN{system("rm -rf src")}'`);
    refused(lead, /write \(awk print >\) \/ws\/src\/a\.ts inside the workspace/, `gawk -e 'BEGIN { print "x" > "src/a.ts" }' -e 'BEGIN{}'`);
    allowed(lead, `gawk -e 'BEGIN{x=1}' -e '{print}' src/a.ts`, 'awk -f p.awk src/a.ts', 'awk --file p.awk src/a.ts', 'awk -f p.awk -e');
  });

  it('system() of a computed string: refused for the lead, for a teammate only beside a destructive verb', () => {
    refused(lead, /run shell commands awk builds at run time \(system\(\) of a computed string\)/, "awk '{system($0)}' /tmp/cmds");
    allowed(tm, "awk '{system($0)}' /tmp/cmds", `awk 'BEGIN{system("echo hi")}'`);
    refused(tm, /run shell commands built by awk, built at run time, in a command that carries a destructive verb/, "echo 'rm -rf ../bob' | awk '{system($0)}'");
  });
});
