/**
 * fs-rules.ts: one row per mutant StrykerJS left alive in its run of the whole file (session 5, 87.75 %), and the
 * guard defects those survivors pointed at (tar's old-style first word, dd's run-time operands and repeated `of=`,
 * wget's log file, curl's other written files and repeated `-o`, gawk's `-E`/`--exec`). docs/testing.md,
 * "fs-rules.ts survivors, one by one (session 5)", names the row that kills each mutant.
 */
import { describe, expect, it } from 'vitest';
import { reason, rows, run } from './rows.js';

/** [command, lead, teammate] (lead at /ws, teammate alice in /ws/.worktrees/alice). */
rows('defects fixed in session 5: files written that were not checked', [
  // tar reads a first word without a dash as option letters, whatever else it holds: `xvf-` extracts
  ['tar xvf- /tmp/a.tar', 'deny', 'allow'],
  ['tar xvf- /tmp/a.tar -C ../bob', 'allow', 'deny'],
  // dd: a run-time operand may be `of=…`; with two `of=` the last one is written
  ['dd if=/dev/zero $X', 'deny', 'allow'],
  ['dd if=/dev/zero o$X', 'deny', 'allow'],
  ['dd if=/dev/zero of$X', 'deny', 'allow'],
  ['dd if=/dev/zero of=/tmp/x of=src/a.ts', 'deny', 'allow'],
  ['dd if=/dev/zero of=/tmp/x of=../bob/a', 'allow', 'deny'],
  // wget's log file (-o, -a, --output-file, --append-output)
  ['wget -o src/a.ts http://x', 'deny', 'allow'],
  // an abbreviated long option takes its value from the next word, as getopt_long reads it
  ['wget --output-d src/a.ts http://x', 'deny', 'allow'],
  ['wget --output-f ../bob/log -O /tmp/a http://x', 'allow', 'deny'],
  ['curl --out src/a.ts http://x', 'deny', 'allow'],
  ['wget -o ../bob/a -O /tmp/a http://x', 'allow', 'deny'],
  ['wget -a src/log http://x', 'deny', 'allow'],
  ['wget --output-file src/log http://x', 'deny', 'allow'],
  ['wget --append-output=../bob/log -O /tmp/a http://x', 'allow', 'deny'],
  ['wget --append-output src/log http://x', 'deny', 'allow'],
  ['wget --output=src/log http://x', 'deny', 'allow'],
  // curl: cookie jar, header dump, traces, stderr, libcurl source; each -o of several
  ['curl -c src/c http://x', 'deny', 'allow'],
  ['curl -D ../bob/h http://x', 'allow', 'deny'],
  ['curl --cookie-jar src/c http://x', 'deny', 'allow'],
  ['curl --dump-header src/h http://x', 'deny', 'allow'],
  ['curl --trace src/t http://x', 'deny', 'allow'],
  ['curl --trace-ascii src/t http://x', 'deny', 'allow'],
  ['curl --stderr src/e http://x', 'deny', 'allow'],
  ['curl --libcurl src/l.c http://x', 'deny', 'allow'],
  ['curl --trace - --stderr - http://x', 'allow', 'allow'],
  ['curl -o src/a.ts http://x/1 -o /tmp/b http://x/2', 'deny', 'allow'],
  ['curl --output /tmp/a http://x/1 --output src/a.ts http://x/2', 'deny', 'allow'],
  ['curl --out=src/a.ts http://x', 'deny', 'allow'],
  ['curl --ou=src/a.ts http://x', 'allow', 'allow'],
  ['curl --cookie a=b http://x', 'allow', 'allow'],
  ['curl --cookie /tmp/c -c /tmp/c2 http://x', 'allow', 'allow'],
  // only the output letters count among the short values; an output option with no value writes nothing
  ["curl -H 'Accept: text/html' -o /tmp/a http://x", 'allow', 'allow'],
  ['sort -k 2 -t , -o /tmp/b /tmp/a', 'allow', 'allow'],
  ['curl http://x --output', 'allow', 'allow'],
  // gawk: the program from -E/--exec makes every operand a file
  ['gawk -i inplace -E /tmp/p.awk src/a.ts', 'deny', 'allow'],
  ['gawk -i inplace --exec /tmp/p.awk src/a.ts', 'deny', 'allow'],
]);

rows('an option value that looks like an option or a path stays a value', [
  // tar: --file, --exclude, --transform, --files-from take a value; a value is no -x
  ['tar -t --file -x.tar', 'allow', 'allow'],
  ['tar -t -f /tmp/a.tar --exclude -x', 'allow', 'allow'],
  ['tar -t -f /tmp/a.tar --transform -xs', 'allow', 'allow'],
  ['tar -c -f /tmp/a.tar --files-from -x.list', 'allow', 'allow'],
  ['tar --exclude=x -tf /tmp/a.tar', 'allow', 'allow'],
  // sort: --key, --field-separator, --buffer-size, --temporary-directory take a value; it is no -o
  ['sort --key -osrc /tmp/a', 'allow', 'allow'],
  ['sort --field-separator -osrc /tmp/a', 'allow', 'allow'],
  ['sort --buffer-size -osrc /tmp/a', 'allow', 'allow'],
  ['sort --temporary-directory -osrc /tmp/a', 'allow', 'allow'],
  // sort has no --output-dir (curl's)
  ['sort --output-dir=src /tmp/a', 'allow', 'allow'],
  // curl's value options
  ['curl --request -osrc http://x', 'allow', 'allow'],
  ['curl --header -osrc http://x', 'allow', 'allow'],
  ['curl --data -osrc http://x', 'allow', 'allow'],
  ['curl --user -osrc http://x', 'allow', 'allow'],
  ['curl --user-agent -osrc http://x', 'allow', 'allow'],
  ['curl --cookie -osrc http://x', 'allow', 'allow'],
  ['curl --upload-file -osrc http://x', 'allow', 'allow'],
  ['curl --write-out -osrc http://x', 'allow', 'allow'],
  ['curl --proxy -osrc http://x', 'allow', 'allow'],
  // --config takes the next word (a config file: refused to the lead, whose writes it names are unseen); not an -o for a teammate
  ['curl --config -o../bob/a http://x', 'deny', 'allow'],
  ['curl --output-dir /tmp/d --output /tmp/a http://x', 'allow', 'allow'],
  // wget's value options
  ['wget --user-agent -Osrc/a.ts -P /tmp http://x', 'allow', 'allow'],
  ['wget --tries -Osrc/a.ts -P /tmp http://x', 'allow', 'allow'],
  ['wget --timeout -Osrc/a.ts -P /tmp http://x', 'allow', 'allow'],
  ['wget --wait -Osrc/a.ts -P /tmp http://x', 'allow', 'allow'],
  // gawk: a program file, an assignment, a separator, program text are not the files rewritten
  ['gawk -i inplace --file src/p.awk /tmp/a.txt', 'allow', 'allow'],
  ['gawk -i inplace --exec src/p.awk /tmp/a.txt', 'allow', 'allow'],
  ["gawk -i inplace --assign n=1 '{print}' /tmp/a.txt", 'allow', 'allow'],
  ["gawk -i inplace --field-separator , '{print}' /tmp/a.txt", 'allow', 'allow'],
  ["gawk -i inplace --source '{print}' /tmp/a.txt", 'allow', 'allow'],
  // install's -m/-o/-g and long options take a value: the last operand stays the destination
  ['install /tmp/a ../bob/x -m 644', 'allow', 'deny'],
  ['install /tmp/a ../bob/x --mode 644', 'allow', 'deny'],
  ['install /tmp/a ../bob/x --suffix .bak', 'allow', 'deny'],
  ['install /tmp/a ../bob/x --owner u', 'allow', 'deny'],
  ['install /tmp/a ../bob/x --group g', 'allow', 'deny'],
  ['install --target-directory ../bob /tmp/a', 'allow', 'deny'],
  // rsync's -m is a flag (not install's --mode): the source is still moved away
  ['rsync -am --remove-source-files src/ /tmp/dst', 'deny', 'allow'],
  ['cp --target-directory src /tmp/a', 'deny', 'allow'],
  // only rsync has --remove-source-files (cp rejects it and copies nothing)
  ['cp --remove-source-files src/a.ts /tmp/x', 'allow', 'allow'],
  // sed: the backup suffix glued to -i is not read as flags, also after other letters (`.before` holds e and f)
  ['sed -i.before s/a/b/ /tmp/a.txt', 'allow', 'allow'],
  ['sed -sEi.before s/a/b/ /tmp/a.txt', 'allow', 'allow'],
  // chown --from takes the current owner
  ['chown -R --from root alice /tmp/x', 'allow', 'allow'],
  // rename -e: the expression is the option's value, every operand a file
  ["rename -e 's/a/b/' a.ts /tmp/b", 'deny', 'allow'],
  // patch: -d, --directory, --input, --output take a value, even one spelled --dry-run
  ['patch -d --dry-run < /tmp/fix.diff', 'deny', 'allow'],
  ['patch --directory --dry-run < /tmp/fix.diff', 'deny', 'allow'],
  ['patch --input --dry-run', 'deny', 'allow'],
  ['patch --output --dry-run < /tmp/fix.diff', 'deny', 'allow'],
  // dd: oflag= is no of=; a run-time if= is no output
  ['dd if=/dev/zero oflag=direct of=/tmp/x', 'allow', 'allow'],
  ['dd if="$IN" of=/tmp/x', 'allow', 'allow'],
]);

rows('find: leading options, starting points, -files0-from', [
  ['find -L', 'allow', 'allow'],
  ['find -H -P', 'allow', 'allow'],
  ['find /tmp/x-P -delete', 'allow', 'allow'],
  ['find -Lx /tmp/x -delete', 'deny', 'allow'],
  ['find -O10 /tmp/x -delete', 'allow', 'allow'],
  ['find /tmp/x -name a-files0-from -delete', 'allow', 'allow'],
  // a teammate's find -delete from / removes the worktrees directory with everything else
  ['find / -name x -delete', 'deny', 'deny'],
]);

describe('what a refusal names (session 5)', () => {
  it('the default directory of tar, unzip and find is shown as `.`', () => {
    expect(reason('lead', 'cd "$D" && tar -xf /tmp/a.tar')).toMatch(/extract an archive into \. after a cd to a dynamic directory/);
    expect(reason('lead', 'cd "$D" && unzip /tmp/a.zip')).toMatch(/extract an archive into \. after a cd to a dynamic directory/);
    expect(reason('teammate', 'cd "$D/.." && find -name x -delete')).toMatch(/find -delete a path computed at run time \(\.\)\.$/);
  });

  it('unzip says it extracts; find -files0-from names its run-time starting points', () => {
    expect(reason('lead', 'unzip /tmp/a.zip')).toMatch(/extract an archive into \/ws inside the workspace/);
    expect(reason('teammate', 'cd "$D/.." && find /tmp/x -files0-from /tmp/l -delete')).toMatch(/find -delete a path computed at run time \(<find -files0-from>\)\.$/);
  });

  it("a teammate's find -delete from / is refused for the worktrees directory under it", () => {
    expect(reason('teammate', 'find / -name x -delete')).toMatch(/find -delete: touch the team's worktrees directory \(\/\)/);
  });

  it('with HOME assigned only ~ paths become unknown: an absolute path is judged by its place', () => {
    expect(run('lead', 'HOME=/tmp/h; echo x > /tmp/a.txt')).toEqual({ allowed: true });
    expect(run('teammate', 'HOME=/tmp/h; echo x > /tmp/a.txt')).toEqual({ allowed: true });
    expect(run('lead', 'HOME=/tmp/h; rm -rf /tmp/build')).toEqual({ allowed: true });
    expect(reason('lead', 'HOME=/tmp/h; rm -rf ~/build')).toMatch(/recursively remove files/);
  });
});
