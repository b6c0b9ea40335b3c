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

type Row = [cmd: string, why: string | null];
function verdicts(role: 'lead' | 'teammate', rows: readonly Row[]): void {
  for (const [cmd, why] of rows) {
    const v = checkCommand(role, cmd, role === 'lead' ? leadCtx : teammateCtx);
    if (why === null) expect(v, cmd).toEqual({ allowed: true });
    else expect(v.allowed ? 'allowed' : v.reason, cmd).toContain(`\`: it would ${why}.`);
  }
}

/** tar --remove-files, zip -m, 7z -sdel, containers, sqlite3, cmake -E, vim/ex, ed: the lead at /ws on main. `null`: allowed. */
const LEAD: Row[] = [
  ['tar -cf /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --file /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --directory src -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --exclude x -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --transform s,a,b, -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --files-from l -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -cf /tmp/a.tar --rem src', 'archive files and delete them (tar --remove-files) /ws/src recursively (outside a scratch directory)'],
  ['tar -cf /tmp/a.tar --re src', null],
  ['tar -cf /tmp/a.tar --r src', null],
  ['tar --create --gzip -f /tmp/a.tgz src', null],
  ['tar --remove-files --gzip -cf /tmp/a.tgz src', 'archive files and delete them (tar --remove-files) /ws/src recursively (outside a scratch directory)'],
  ['tar czf /tmp/a.tgz /tmp/x --remove-files', null],
  ['tar fixtures/ -cf /tmp/a.tar --remove-files', 'archive files and delete them (tar --remove-files) /ws/fixtures recursively (outside a scratch directory)'],
  ['tar cz /tmp/x --remove-files', 'archive files and delete them (tar --remove-files) /ws/cz recursively (outside a scratch directory)'],
  ['tar -cf /tmp/a.tar --remove-files /home/u/d', 'archive files and delete them (tar --remove-files) /home/u/d recursively (outside a scratch directory)'],
  ['tar -cf /tmp/a.tar --remove-files -- src', 'archive files and delete them (tar --remove-files) /ws/src recursively (outside a scratch directory)'],
  ['zip -m -b /tmp out.zip /tmp/x/f', null],
  ['zip -m -n .gz out.zip /tmp/x/f', null],
  ['zip -m --temp-path /tmp out.zip /tmp/x/f', null],
  ['zip -m --suffixes .gz out.zip /tmp/x/f', null],
  ['zip -m --output-file o.zip out.zip /tmp/x/f', null],
  ['zip -m --password pw out.zip /tmp/x/f', null],
  ['zip -m /tmp/a.zip /home/u/d', null],
  ['zip -rm /tmp/a.zip /home/u/d', 'archive files and delete them (zip -m) /home/u/d recursively (outside a scratch directory)'],
  ['zip -Rm /tmp/a.zip /home/u/d', 'archive files and delete them (zip -m) /home/u/d recursively (outside a scratch directory)'],
  ['zip -m --recurse-paths /tmp/a.zip /home/u/d', 'archive files and delete them (zip -m) /home/u/d recursively (outside a scratch directory)'],
  ['zip --mo /tmp/a.zip src/a.ts', 'archive files and delete them (zip -m) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['zip -m /tmp/a.zip -- src/a.ts', 'archive files and delete them (zip -m) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['zip -r /tmp/a.zip src', null],
  ['7z a -mx9 -sdel /tmp/a.7z /tmp/x', null],
  ['7za a -sdel /tmp/a.7z src', 'archive files and delete them (7z -sdel) /ws/src recursively (outside a scratch directory)'],
  ['7zr a -sdel /tmp/a.7z src', 'archive files and delete them (7z -sdel) /ws/src recursively (outside a scratch directory)'],
  ['7z a -sdel /tmp/a.7z /home/u/d', 'archive files and delete them (7z -sdel) /home/u/d recursively (outside a scratch directory)'],
  ['7z a /tmp/a.7z src', null],
  ['docker run --volume /ws/src:/s alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws/src recursively (outside a scratch directory)'],
  ['docker run -v/ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run --volume=$PWD:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) a path computed at run time (--volume=$PWD:/w)'],
  ['docker run -v "$VOL":/w alpine', 'mount writable into a container (anything the container runs can change or delete it) a path computed at run time ("$VOL":/w)'],
  ['docker run -v cache-$X:/c alpine', null],
  ['docker run -v /ws:/w:rw alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run -v /ws:/w:z,ro alpine', null],
  ['docker run -v /ws:/w:readonly alpine', null],
  ['docker run -v /ws:/w:rox alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run -v ~/x:/x alpine', 'mount writable into a container (anything the container runs can change or delete it) /home/u/x recursively (outside a scratch directory)'],
  ['docker run -v -x alpine', null],
  ['docker --context c run -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker container create -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker exec -v /ws:/w c', null],
  ['docker container ls -v /ws:/w', null],
  ['docker run --mount=type=bind,src=/ws,dst=/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run --mount source=/ws,target=/w alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,ro alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,ro=true alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,readonly=1 alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,readonly=false alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run --mount type=bind,target=/w alpine', null],
  ['docker run --mount type=bind,source=$PWD,target=/w alpine', 'mount writable into a container (anything the container runs can change or delete it) a path computed at run time (type=bind,source=$PWD,target=/w)'],
  ['docker run --mount=type=bind,source=$PWD,target=/w alpine', 'mount writable into a container (anything the container runs can change or delete it) a path computed at run time (--mount=type=bind,source=$PWD,target=/w)'],
  ['docker run alpine --mount', null],
  ['docker run --mount type=bind,source=/tmp/a=b,target=/w alpine', null],
  ['docker run --mount type=bind,source=/ws/a=b,target=/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws/a=b recursively (outside a scratch directory)'],
  ['docker run -v /tmp/x:/x -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker run -v /ws:/w:ro -v /ws/src:/s alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws/src recursively (outside a scratch directory)'],
  ['podman container run -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['sqlite3 /tmp/x.db ".sh rm -rf src"', 'recursively remove files (from sqlite3 .sh)'],
  ['sqlite3 /tmp/x.db "select 1; .shell rm -rf src"', 'recursively remove files (from sqlite3 .shell)'],
  ['sqlite3 /tmp/x.db "select 1;.system rm -rf src"', 'recursively remove files (from sqlite3 .system)'],
  ['sqlite3 /tmp/x.db "x.shell rm -rf src"', null],
  ['sqlite3 /tmp/x.db ".shell echo hi"', null],
  ['sqlite3 /tmp/x.db ".once src/a.ts"', 'write (sqlite3 .once) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".save src/x.db"', 'write (sqlite3 .save) /ws/src/x.db inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".backup src/x.db"', 'write (sqlite3 .backup) /ws/src/x.db inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".backup --async main src/x.db"', 'write (sqlite3 .backup) /ws/main inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".once -x src/a.csv"', 'write (sqlite3 .once) /ws/src/a.csv inside the workspace (the lead does not author files)'],
  [`sqlite3 /tmp/x.db ".output '/tmp/o.txt'"`, null],
  [`sqlite3 /tmp/x.db '.output "src/a.ts"'`, 'write (sqlite3 .output) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".output |rm -rf src"', 'recursively remove files (from sqlite3 .output |)'],
  [`sqlite3 /tmp/x.db ".output '|rm -rf src'"`, 'recursively remove files (from sqlite3 .output |)'],
  ['sqlite3 /tmp/x.db ".output |cat"', null],
  ['sqlite3 /tmp/x.db ".output /tmp/o.txt"', null],
  ['sqlite /tmp/x.db ".shell rm -rf src"', 'recursively remove files (from sqlite3 .shell)'],
  ['sqlite3 /tmp/x.db <<< ".output src/a.ts"', 'write (sqlite3 .output) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['cmake -E rm src/a.ts', null],
  ['cmake -E remove -f src/a.ts', null],
  ['cmake -E remove src/a.ts', null],
  ['cmake -E remove_directory /tmp/x', null],
  ['cmake -E rename /tmp/a src/a.ts', 'mv onto /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['cmake -E copy_if_different /tmp/x src/a.ts', 'cp onto /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['cmake -E copy_directory /tmp/x src', 'cp onto /ws/src inside the workspace (the lead does not author files)'],
  ['cmake -E copy_directory_if_different /tmp/x src', 'cp onto /ws/src inside the workspace (the lead does not author files)'],
  ['cmake -E copy_directory /tmp/x /home/u/d', null],
  ['cmake -E copy /tmp/x /home/u/d', null],
  ['cmake -E create_symlink /tmp/x src/a.ts', 'link into /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['cmake -E create_hardlink /tmp/x src/a.ts', 'link into /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['cmake -E touch src/a.ts', null],
  ['cmake -E touch_nocreate src/a.ts', null],
  ['cmake -E make_directory src/new', null],
  ['cmake -E tar xf /tmp/a.tar', 'extract an archive into /ws inside the workspace (the lead does not author files)'],
  ['cmake -E env rm -rf src', 'recursively remove files'],
  ['cmake -E env --unset=X rm -rf src', 'recursively remove files'],
  ['cmake -E env FOO=1 --unset=Y rm -rf src', 'recursively remove files'],
  ['cmake -E env FOO=1', null],
  ['cmake -E env 1X=1 rm -rf src', 'recursively remove files'],
  ['cmake -E chdir /tmp rm -rf src', 'recursively remove files'],
  ['cmake -E chdir /tmp', null],
  ['cmake -E time rm -rf src', 'recursively remove files'],
  ['cmake -E time', null],
  ['cmake -E echo rm -rf src', null],
  ['cmake -E', null],
  ['cmake --build . -E rm src', null],
  [`vim -c '!rm -rf src'`, 'recursively remove files (from a vim shell escape)'],
  [`vim +'!rm -rf src'`, 'recursively remove files (from a vim shell escape)'],
  [`vim --cmd '!rm -rf src'`, 'recursively remove files (from a vim shell escape)'],
  [`vim -S '!rm -rf src'`, 'recursively remove files (from a vim shell escape)'],
  [`vim -sc '!rm -rf src'`, 'recursively remove files (from a vim shell escape)'],
  [`vim -c 'echo 1' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'w' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -R -c 'wq' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -R -c '%d' src/a.ts`, null],
  [`vim -M -c '%d' src/a.ts`, null],
  ['vim -e src/a.ts', 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  ['vim -E src/a.ts', 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  ['vim -s src/a.ts', 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  ['vim -es -R src/a.ts', null],
  [`view -c '%d' src/a.ts`, null],
  [`rvim -c '%d' src/a.ts`, null],
  [`view -c 'wq' src/a.ts`, 'edit src/a.ts non-interactively with view (the lead does not author files)'],
  ['vim src/a.ts', null],
  [`vim -u NONE -c '%d' -c wq src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  ['vim -u src/a.ts', null],
  ['vim -i NONE -e /tmp/x', null],
  ['vim -e -- src/a.ts', 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  ['vim -e -- $F', 'edit files named at run time with vim'],
  ['vim -c wq $F', 'edit files named at run time with vim'],
  ['vi -c wq src/a.ts', 'edit src/a.ts non-interactively with vi (the lead does not author files)'],
  ['nvim -c wq src/a.ts', 'edit src/a.ts non-interactively with nvim (the lead does not author files)'],
  ['vimdiff -c wq src/a.ts', 'edit src/a.ts non-interactively with vimdiff (the lead does not author files)'],
  ['gvim -c wq src/a.ts', 'edit src/a.ts non-interactively with gvim (the lead does not author files)'],
  ['evim -c wq src/a.ts', 'edit src/a.ts non-interactively with evim (the lead does not author files)'],
  ['ex src/a.ts', 'edit src/a.ts non-interactively with ex (the lead does not author files)'],
  ['ex /tmp/x', null],
  [`vim -c 'x' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'up' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'saveas src/b.ts' /tmp/x`, 'edit src/b.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'normal dd|xit' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'set nowrap' -R src/a.ts`, null],
  [`vim -c ':wq' src/a.ts`, 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
  [`vim -c 'echo "!rm -rf src"' /tmp/x`, null],
  ['ed src/a.ts', 'edit src/a.ts non-interactively with ed (the lead does not author files)'],
  ['ed /tmp/x', null],
  ['red src/a.ts', 'edit src/a.ts non-interactively with red (the lead does not author files)'],
  [`ed -p '*' src/a.ts`, 'edit src/a.ts non-interactively with ed (the lead does not author files)'],
  ['ed -p src/a.ts /tmp/x', null],
  [`ed /tmp/x <<< '!rm -rf src'`, 'recursively remove files (from an ed shell escape)'],
  [`ed /tmp/x <<< '1,$w !rm -rf src'`, 'recursively remove files (from an ed shell escape)'],
  [`ed /tmp/x <<< 'r !rm -rf src'`, 'recursively remove files (from an ed shell escape)'],
  [`red /tmp/x <<< '!rm -rf src'`, null],
  ['ed -- src/a.ts', 'edit src/a.ts non-interactively with ed (the lead does not author files)'],
  ['ed $F', 'edit files named at run time with ed'],
  ['docker -H tcp://h:2375 run -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker build -t run .', null],
  ['docker $OPTS run -v /ws:/w alpine', 'mount writable into a container (anything the container runs can change or delete it) /ws recursively (outside a scratch directory)'],
  ['docker ps --filter name=run', null],
  ['docker run -v /tmp/x:/x alpine', null],
  ['docker container ls', null],
  [`sqlite3 /tmp/x.db '.once "|rm -rf src"'`, 'recursively remove files (from sqlite3 .once |)'],
  ['sqlite3 /tmp/x.db ".output src/a.ts"', 'write (sqlite3 .output) /ws/src/a.ts inside the workspace (the lead does not author files)'],
  ['sqlite3 /tmp/x.db ".output /tmp/a b"', null],
  ['cmake -E env -- rm -rf src', 'recursively remove files'],
  ['cmake -E env FOO=1 ls', null],];

/** The same commands for teammate alice in /ws/.worktrees/alice: only other worktrees and the lead's checkout are off limits. */
const TEAMMATE: Row[] = [
  ['tar -cf a.tar --remove-files /tmp/x', null],
  ['tar -c --file a.tar --remove-files /tmp/x', null],
  ['tar -c --directory src -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --exclude x -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --transform s,a,b, -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -c --files-from l -f /tmp/a.tar --remove-files /tmp/x', null],
  ['tar -cf /tmp/a.tar --rem src', null],
  ['tar -cf /tmp/a.tar --re src', null],
  ['tar -cf /tmp/a.tar --r src', null],
  ['tar --create --gzip -f /tmp/a.tgz src', null],
  ['tar --remove-files --gzip -cf /tmp/a.tgz src', null],
  ['tar czf /tmp/a.tgz /tmp/x --remove-files', null],
  ['tar fixtures/ -cf /tmp/a.tar --remove-files', null],
  ['tar cz /tmp/x --remove-files', null],
  ['tar -cf /tmp/a.tar --remove-files /home/u/d', null],
  ['tar -cf /tmp/a.tar --remove-files -- src', null],
  ['zip -m -b /tmp out.zip /tmp/x/f', null],
  ['zip -m -n .gz out.zip /tmp/x/f', null],
  ['zip -m --temp-path /tmp out.zip /tmp/x/f', null],
  ['zip -m --suffixes .gz out.zip /tmp/x/f', null],
  ['zip -m --output-file o.zip out.zip /tmp/x/f', null],
  ['zip -m --password pw out.zip /tmp/x/f', null],
  ['zip -m /tmp/a.zip /home/u/d', null],
  ['zip -rm /tmp/a.zip /home/u/d', null],
  ['zip -Rm /tmp/a.zip /home/u/d', null],
  ['zip -m --recurse-paths /tmp/a.zip /home/u/d', null],
  ['zip --mo /tmp/a.zip src/a.ts', null],
  ['zip -m /tmp/a.zip -- src/a.ts', null],
  ['zip -r /tmp/a.zip src', null],
  ['7z a -mx9 -sdel /tmp/a.7z /tmp/x', null],
  ['7za a -sdel /tmp/a.7z src', null],
  ['7zr a -sdel /tmp/a.7z src', null],
  ['7z a -sdel /tmp/a.7z /home/u/d', null],
  ['7z a /tmp/a.7z src', null],
  ['docker run --volume /ws/src:/s alpine', `mount writable into a container (anything the container runs can change or delete it): write into the lead's checkout (/ws/src), outside your own worktree`],
  ['docker run -v/ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run --volume=$PWD:/w alpine', null],
  ['docker run -v "$VOL":/w alpine', null],
  ['docker run -v cache-$X:/c alpine', null],
  ['docker run -v /ws:/w:rw alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run -v /ws:/w:z,ro alpine', null],
  ['docker run -v /ws:/w:readonly alpine', null],
  ['docker run -v /ws:/w:rox alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run -v ~/x:/x alpine', null],
  ['docker run -v -x alpine', null],
  ['docker --context c run -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker container create -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker exec -v /ws:/w c', null],
  ['docker container ls -v /ws:/w', null],
  ['docker run --mount=type=bind,src=/ws,dst=/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run --mount source=/ws,target=/w alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,ro alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,ro=true alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,readonly=1 alpine', null],
  ['docker run --mount type=bind,source=/ws,target=/w,readonly=false alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run --mount type=bind,target=/w alpine', null],
  ['docker run --mount type=bind,source=$PWD,target=/w alpine', null],
  ['docker run --mount=type=bind,source=$PWD,target=/w alpine', null],
  ['docker run alpine --mount', null],
  ['docker run --mount type=bind,source=/tmp/a=b,target=/w alpine', null],
  ['docker run --mount type=bind,source=/ws/a=b,target=/w alpine', `mount writable into a container (anything the container runs can change or delete it): write into the lead's checkout (/ws/a=b), outside your own worktree`],
  ['docker run -v /tmp/x:/x -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker run -v /ws:/w:ro -v /ws/src:/s alpine', `mount writable into a container (anything the container runs can change or delete it): write into the lead's checkout (/ws/src), outside your own worktree`],
  ['podman container run -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['sqlite3 /tmp/x.db ".sh rm -rf src"', null],
  ['sqlite3 /tmp/x.db "select 1; .shell rm -rf src"', null],
  ['sqlite3 /tmp/x.db "select 1;.system rm -rf src"', null],
  ['sqlite3 /tmp/x.db "x.shell rm -rf src"', null],
  ['sqlite3 /tmp/x.db ".shell echo hi"', null],
  ['sqlite3 /tmp/x.db ".once src/a.ts"', null],
  ['sqlite3 /tmp/x.db ".save src/x.db"', null],
  ['sqlite3 /tmp/x.db ".backup src/x.db"', null],
  ['sqlite3 /tmp/x.db ".backup --async main src/x.db"', null],
  ['sqlite3 /tmp/x.db ".once -x src/a.csv"', null],
  [`sqlite3 /tmp/x.db ".output '/tmp/o.txt'"`, null],
  [`sqlite3 /tmp/x.db '.output "src/a.ts"'`, null],
  ['sqlite3 /tmp/x.db ".output |rm -rf src"', null],
  [`sqlite3 /tmp/x.db ".output '|rm -rf src'"`, null],
  ['sqlite3 /tmp/x.db ".output |cat"', null],
  ['sqlite3 /tmp/x.db ".output /tmp/o.txt"', null],
  ['sqlite /tmp/x.db ".shell rm -rf src"', null],
  ['sqlite3 /tmp/x.db <<< ".output src/a.ts"', null],
  ['cmake -E rm src/a.ts', null],
  ['cmake -E remove -f src/a.ts', null],
  ['cmake -E remove src/a.ts', null],
  ['cmake -E remove_directory /tmp/x', null],
  ['cmake -E rename /tmp/a src/a.ts', null],
  ['cmake -E copy_if_different /tmp/x src/a.ts', null],
  ['cmake -E copy_directory /tmp/x src', null],
  ['cmake -E copy_directory_if_different /tmp/x src', null],
  ['cmake -E copy_directory /tmp/x /home/u/d', null],
  ['cmake -E copy /tmp/x /home/u/d', null],
  ['cmake -E create_symlink /tmp/x src/a.ts', null],
  ['cmake -E create_hardlink /tmp/x src/a.ts', null],
  ['cmake -E touch src/a.ts', null],
  ['cmake -E touch_nocreate src/a.ts', null],
  ['cmake -E make_directory src/new', null],
  ['cmake -E tar xf /tmp/a.tar', null],
  ['cmake -E env rm -rf src', null],
  ['cmake -E env --unset=X rm -rf src', null],
  ['cmake -E env FOO=1 --unset=Y rm -rf src', null],
  ['cmake -E env FOO=1', null],
  ['cmake -E env 1X=1 rm -rf src', null],
  ['cmake -E chdir /tmp rm -rf src', null],
  ['cmake -E chdir /tmp', null],
  ['cmake -E time rm -rf src', null],
  ['cmake -E time', null],
  ['cmake -E echo rm -rf src', null],
  ['cmake -E', null],
  ['cmake --build . -E rm src', null],
  [`vim -c '!rm -rf src'`, null],
  [`vim +'!rm -rf src'`, null],
  [`vim --cmd '!rm -rf src'`, null],
  [`vim -S '!rm -rf src'`, null],
  [`vim -sc '!rm -rf src'`, null],
  [`vim -c 'echo 1' src/a.ts`, null],
  [`vim -c 'w' src/a.ts`, null],
  [`vim -R -c 'wq' src/a.ts`, null],
  [`vim -R -c '%d' src/a.ts`, null],
  [`vim -M -c '%d' src/a.ts`, null],
  ['vim -e src/a.ts', null],
  ['vim -E src/a.ts', null],
  ['vim -s src/a.ts', null],
  ['vim -es -R src/a.ts', null],
  [`view -c '%d' src/a.ts`, null],
  [`rvim -c '%d' src/a.ts`, null],
  [`view -c 'wq' src/a.ts`, null],
  ['vim src/a.ts', null],
  [`vim -u NONE -c '%d' -c wq src/a.ts`, null],
  ['vim -u src/a.ts', null],
  ['vim -i NONE -e /tmp/x', null],
  ['vim -e -- src/a.ts', null],
  ['vim -e -- $F', null],
  ['vim -c wq $F', null],
  ['vi -c wq src/a.ts', null],
  ['nvim -c wq src/a.ts', null],
  ['vimdiff -c wq src/a.ts', null],
  ['gvim -c wq src/a.ts', null],
  ['evim -c wq src/a.ts', null],
  ['ex src/a.ts', null],
  ['ex /tmp/x', null],
  [`vim -c 'x' src/a.ts`, null],
  [`vim -c 'up' src/a.ts`, null],
  [`vim -c 'saveas src/b.ts' /tmp/x`, null],
  [`vim -c 'normal dd|xit' src/a.ts`, null],
  [`vim -c 'set nowrap' -R src/a.ts`, null],
  [`vim -c ':wq' src/a.ts`, null],
  [`vim -c 'echo "!rm -rf src"' /tmp/x`, null],
  ['ed src/a.ts', null],
  ['ed /tmp/x', null],
  ['red src/a.ts', null],
  [`ed -p '*' src/a.ts`, null],
  ['ed -p src/a.ts /tmp/x', null],
  [`ed /tmp/x <<< '!rm -rf src'`, null],
  [`ed /tmp/x <<< '1,$w !rm -rf src'`, null],
  [`ed /tmp/x <<< 'r !rm -rf src'`, null],
  [`red /tmp/x <<< '!rm -rf src'`, null],
  ['ed -- src/a.ts', null],
  ['ed $F', null],
  ['docker -H tcp://h:2375 run -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker build -t run .', null],
  ['docker $OPTS run -v /ws:/w alpine', `mount writable into a container (anything the container runs can change or delete it): touch the team's worktrees directory (/ws), which holds other teammates' worktrees`],
  ['docker ps --filter name=run', null],
  ['docker run -v /tmp/x:/x alpine', null],
  ['docker container ls', null],
  [`sqlite3 /tmp/x.db '.once "|rm -rf src"'`, null],
  ['sqlite3 /tmp/x.db ".output src/a.ts"', null],
  ['sqlite3 /tmp/x.db ".output /tmp/a b"', null],
  ['cmake -E env -- rm -rf src', null],
  ['cmake -E env FOO=1 ls', null],];

describe('archivers, containers, sqlite3, cmake -E, editors', () => {
  it('lead: each spelling is refused or allowed, with its reason', () => verdicts('lead', LEAD));
  it('teammate: each spelling is refused or allowed, with its reason', () => verdicts('teammate', TEAMMATE));
});

describe('editors writing to a file they name', () => {
  it('vim :w / :saveas and ed w / W with a path write that path: the lead may not name a workspace file', () => {
    refused(lead, /edit src\/b\.ts non-interactively with vim \(the lead does not author files\)/, "vim -c 'w src/b.ts' /tmp/x", "vim -es -c 'w src/b.ts' -c q /tmp/x",
      "vim -c 'saveas src/b.ts' /tmp/x", "vim -c 'normal dd|w! src/b.ts' /tmp/x", "vim -c 'w >> src/b.ts' /tmp/x", "vim -c '1,5w src/b.ts' /tmp/x");
    refused(lead, /edit src\/b\.ts non-interactively with ed/, "ed -s /tmp/x <<< 'w src/b.ts'", "ed -s /tmp/x <<< $'1,$d\\nW src/b.ts\\nq'");
    refused(lead, /edit src\/b\.ts non-interactively with red/, "red /tmp/x <<< 'w src/b.ts'");
    allowed(lead, "vim -c 'w /tmp/y' /tmp/x", "vim -c 'wq' /tmp/x", "vim -c '%d|x' /tmp/x", "ed -s /tmp/x <<< 'w /tmp/y'", "ed /tmp/x <<< 'w !ls'", "vim -c 'w !ls' /tmp/x");
    allowed(tm, "vim -c 'w src/b.ts' /tmp/x", "ed -s /tmp/x <<< 'w src/b.ts'");
    refused(tm, /edit \(vim\): .*\/ws\/\.worktrees\/bob\/b\.ts/, "vim -c 'w ../bob/b.ts' /tmp/x");
  });
});

describe('survivors of the first mutation run (programs.ts:1-115)', () => {
  it('every operand is checked, not only the first', () => {
    refused(lead, /\(gzip, which deletes the originals\) \/ws\/src\/a\.ts inside the workspace/, 'gzip /tmp/a.log src/a.ts');
  });
  it('a container command with no verb, a command argument that contains -v, named volumes with a dot', () => {
    allowed(lead, 'docker container', 'docker run alpine ls ../x-v1', 'docker run -v cache.v1:/c alpine', 'docker run -v cache.$V:/c alpine');
  });
  it('an escaped quote inside an awk string stays inside the shell command it quotes', () => {
    allowed(lead, `awk 'BEGIN{system("echo \\"a; rm -rf src\\"")}'`);
    refused(lead, /recursively remove files \(from a shell command inside an awk program\)/, `awk 'BEGIN{system("echo a; rm -rf src")}'`);
  });
});

describe('survivors of the first mutation run (programs.ts:116-225)', () => {
  it('awk program texts, escapes and writes; sqlite3 dot-commands; cmake -E tools, each in a spelling that tells the mutant apart', () => {
    verdicts('lead', [
      [`awk --posix 'BEGIN{system("rm -rf src")}'`, 'recursively remove files (from a shell command inside an awk program)'],
      [`awk -f p.awk 'BEGIN{system(x)}'`, null],
      [`awk --file p.awk 'BEGIN{system(x)}'`, null],
      ['awk', null],
      [`awk 'BEGIN{system ("rm -rf src")}'`, 'recursively remove files (from a shell command inside an awk program)'],
      [`awk '{system ($0)}' f`, 'run shell commands awk builds at run time (system() of a computed string)'],
      [`awk 'BEGIN{print "x" |"rm -rf src"}'`, 'recursively remove files (from a shell command inside an awk program)'],
      [`awk 'BEGIN{print "x" | "rm -rf src"}'`, 'recursively remove files (from a shell command inside an awk program)'],
      [`awk 'BEGIN { "rm -rf src"|getline }'`, 'recursively remove files (from a shell command inside an awk program)'],
      [`awk 'BEGIN { print "rm -rf src" }'`, null],
      [`awk 'BEGIN { print "x" >"src/a.ts" }'`, 'write (awk print >) /ws/src/a.ts inside the workspace (the lead does not author files)'],
      [`awk 'BEGIN { print 1 > "/tmp/a"; print 2 > "src/a.ts" }'`, 'write (awk print >) /ws/src/a.ts inside the workspace (the lead does not author files)'],
      [`sqlite3 /tmp/x.db "select 'a.output src/a.ts'"`, null],
      ['sqlite3 /tmp/x.db "select 1; .output src/a.ts"', 'write (sqlite3 .output) /ws/src/a.ts inside the workspace (the lead does not author files)'],
      [`sqlite3 /tmp/x.db ".output '|cat' "`, null],
      ['sqlite3 /tmp/x.db ".output src/a|b"', 'write (sqlite3 .output) /ws/src/a|b inside the workspace (the lead does not author files)'],
      ['sqlite3 /tmp/x.db ".output /tmp/a" ".once src/a.ts"', 'write (sqlite3 .once) /ws/src/a.ts inside the workspace (the lead does not author files)'],
      ['cmake rename /tmp/a src/a.ts', null],
      ['cmake -E rm -rf src', 'recursively remove files'],
      ['cmake -E remove -f src/a.ts src/b.ts', null],
      ['cmake -E remove src/a.ts src/b.ts', null],
      ['cmake -E remove src/*.ts', 'remove every file matching src/*.ts'],
      ['cmake -E copy_directory /tmp/x /home/u/d', null],
      ['cmake -E touch src/a.ts', null],
      ['cmake -E make_directory /home/u/x', null],
      ['cmake -E env --modify=X=1 rm -rf src', 'recursively remove files'],
      ['cmake -E env a--b rm -rf src', null],
    ]);
  });
});

describe('cmake -E touch tools (teammate)', () => {
  it('touch, touch_nocreate and make_directory are writes into another worktree', () => {
    verdicts('teammate', ['touch', 'touch_nocreate', 'make_directory'].map((tool): Row => [`cmake -E ${tool} ../bob/x`, "touch: write into another teammate's worktree (/ws/.worktrees/bob/x)"]));
  });
});

describe('vim reads its options as vim does (session 4)', () => {
  it('-c glued to its command (-c{command}, also after other letters) is a command: shell escapes and writes are checked', () => {
    refused(lead, /recursively remove files \(from a vim shell escape\)/, "vim -c'!rm -rf src' /tmp/x", "vim -ec'!rm -rf src' /tmp/x");
    refused(tm, /remove: write into another teammate's worktree \(\/ws\/\.worktrees\/bob\) \(from a vim shell escape\)/, "vim -c'!rm -rf ../bob' /tmp/x");
    refused(lead, /edit src\/a\.ts non-interactively with vim/, "vim -c'%d|wq' src/a.ts", 'vim -cwq src/a.ts', "vim -R -c'%d|w' src/a.ts");
    refused(lead, /edit src\/b\.ts non-interactively with vim/, "vim -c'w src/b.ts' /tmp/x");
  });

  it('-r and -L (recovery) take no value: the word after them is an edited file', () => {
    refused(lead, /edit src\/a\.ts non-interactively with vim/, "vim -c '%d|wq' -r src/a.ts", "vim -c '%d|wq' -L src/a.ts", "vim -rc wq src/a.ts");
  });

  it('a letter that takes a value takes the next word, also at the end of a cluster; other letters of the cluster still count', () => {
    refused(lead, /edit src\/a\.ts non-interactively with vim/, 'vim -eu NONE src/a.ts', 'vim -Ei NONE src/a.ts');
    allowed(lead, 'vim -eu src/a.ts /tmp/x', 'vim -RT src/a.ts -c wq /tmp/x', 'vim -t src/a.ts', 'vim -q src/a.ts', 'vim -V1 src/a.ts');
  });

  it('-w and -W write their script file (not -w{number}, the window height), -V{N}{file} its log', () => {
    refused(lead, /edit src\/a\.ts non-interactively with vim/, 'vim -W src/a.ts -c q /tmp/x', 'vim -w src/a.ts /tmp/x', 'vim -R -W src/a.ts /tmp/x', 'vim -nW src/a.ts /tmp/x',
      'vim -V9src/a.ts /tmp/x', 'vim -Wsrc/a.ts /tmp/x');
    refused(tm, /edit \(vim\): write into another teammate's worktree \(\/ws\/\.worktrees\/bob\/log\)/, 'vim -W ../bob/log /tmp/x');
    allowed(lead, 'vim -w80 src/a.ts', 'vim -W /tmp/keys src/a.ts', 'vim -w /tmp/keys -c wq /tmp/x', 'vim -V9/tmp/log src/a.ts', 'vim -V src/a.ts');
  });
});

describe('survivors of the first mutation run (programs.ts:226-327)', () => {
  it('a teammate: a computed system() with no destructive verb around does not hide the quoted commands after it (programs.ts:152)', () => {
    refused(tm, /touch: write into another teammate's worktree \(\/ws\/\.worktrees\/bob\/x\) \(from a shell command inside an awk program\)/, `awk 'BEGIN{system(x); system("touch ../bob/x")}'`);
  });

  it('every awk name reaches the awk rule', () => {
    refused(lead, /recursively remove files \(from a shell command inside an awk program\)/, `mawk 'BEGIN{system("rm -rf src")}'`, `nawk 'BEGIN{system("rm -rf src")}'`);
  });

  it('vim: an option that takes a value at the end of the line, a + command, words after --, names with a dash, other options', () => {
    verdicts('lead', [
      ['vim /tmp/x -c', null],
      ['vim /tmp/x -sc', null],
      ['vim /tmp/x --cmd', null],
      ['vim /tmp/x -W', null],
      ['vim -R +wq src/a.ts', 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
      ['view +x src/a.ts', 'edit src/a.ts non-interactively with view (the lead does not author files)'],
      ['vim -e -- -notes', 'edit -notes non-interactively with vim (the lead does not author files)'],
      ['vim -- -cwq src/a.ts', null],
      ['vim -e src/a-b', 'edit src/a-b non-interactively with vim (the lead does not author files)'],
      ['vim -n src/a.ts', null],
      ['vim -bN src/a.ts', null],
      ['vim -e --noplugin /tmp/x', null],
      ["vim -R -c '%d | w' src/a.ts", 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
      ["vim -R -c '%d|w' src/a.ts", 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
      ["vim -R -c ':up' src/a.ts", 'edit src/a.ts non-interactively with vim (the lead does not author files)'],
      ['vim -V10/tmp/log /tmp/x', null],
      ["vim -tmain -c '!rm -rf src'", 'recursively remove files (from a vim shell escape)'],
    ]);
  });

  it('vim and ed write commands with blanks where ex and ed allow them', () => {
    refused(lead, /edit src\/b\.ts non-interactively with vim/, "vim -c ' :w src/b.ts' /tmp/x", "vim -c ': 1,5 w src/b.ts' /tmp/x", "vim -c '1,5 w src/b.ts' /tmp/x", "vim -c 'w  src/b.ts' /tmp/x");
    refused(tm, /edit \(vim\): write into another teammate's worktree \(\/ws\/\.worktrees\/bob\/b\.ts\)/, "vim -c 'w >>  ../bob/b.ts' /tmp/x");
    refused(lead, /recursively remove files \(from an ed shell escape\)/, "ed /tmp/x <<< ' !rm -rf src'", "ed /tmp/x <<< '1,$ w !rm -rf src'", "ed /tmp/x <<< 'r  !rm -rf src'");
  });

  it('a file that may resolve into the workspace from any possible cwd is refused to the lead', () => {
    refused(lead, /edit a\.ts non-interactively with ed \(the lead does not author files\)/, 'cd /tmp; ed a.ts');
  });
});
