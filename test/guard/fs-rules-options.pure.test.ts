/**
 * File rules (fs-rules.ts) in spellings the corpus does not use: long options and their values, the option
 * that only looks like a path, each deleter and extractor by name, paths after a cd to a dynamic directory.
 * Each row was written against a survivor of a StrykerJS run over the whole file (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { reason, verdict, type V } from './rows.js';

/** [command, lead, teammate] (lead at /ws, teammate alice in /ws/.worktrees/alice). */
const ROWS: [string, V, V][] = [
  // rm and the always-recursive deleters
  ['rm -R src', 'deny', 'allow'],
  ['rm --recursive src', 'deny', 'allow'],
  ['rm --recursive ../bob', 'deny', 'deny'],
  ['rm -r', 'deny', 'allow'],
  ['rm $FLAGS notes.txt', 'deny', 'allow'],
  ['del src', 'deny', 'allow'],
  ['del-cli src', 'deny', 'allow'],
  ['trash-put src', 'deny', 'allow'],
  ['trash /tmp/x', 'allow', 'allow'],
  // tee: an option's value is not a file
  ['echo x | tee --output-error warn /tmp/x', 'allow', 'allow'],
  ['echo x | tee --output-error warn src/a.ts', 'deny', 'allow'],
  // tar and unzip
  ['tar --get -f /tmp/a.tar', 'deny', 'allow'],
  ['tar -xf /tmp/a.tar --directory src', 'deny', 'allow'],
  ['tar -xf /tmp/a.tar --directory=/tmp/x', 'allow', 'allow'],
  ['tar -xf /tmp/a.tar --directory ../bob', 'allow', 'deny'],
  ['tar -x --to-stdout -f /tmp/a.tar', 'allow', 'allow'],
  ['tar tvf /tmp/a.tar', 'allow', 'allow'],
  ['tar xvf /tmp/a.tar -C /tmp/x', 'allow', 'allow'],
  ['unzip -p /tmp/a.zip', 'allow', 'allow'],
  ['unzip -c /tmp/a.zip', 'allow', 'allow'],
  ['unzip -t /tmp/a.zip', 'allow', 'allow'],
  ['unzip -v /tmp/a.zip', 'allow', 'allow'],
  ['unzip -Z /tmp/a.zip', 'allow', 'allow'],
  ['unzip -z /tmp/a.zip', 'allow', 'allow'],
  ['unzip -P pw /tmp/a.zip -d /tmp/x', 'allow', 'allow'],
  ['unzip /tmp/a.zip -d ../bob', 'allow', 'deny'],
  // output options
  ['sort --output src/a.ts x', 'deny', 'allow'],
  ['curl --output-dir src -O http://x/a.ts', 'deny', 'allow'],
  ['curl -o - http://x', 'allow', 'allow'],
  ['wget -O - http://x', 'allow', 'allow'],
  ['wget --output-document src/a.ts http://x', 'deny', 'allow'],
  ['wget --directory-prefix src http://x/a.ts', 'deny', 'allow'],
  ['wget --directory-prefix ../bob http://x/a.ts', 'allow', 'deny'],
  // awk in place
  ["awk -i inplace '{print}' src/a.ts", 'deny', 'allow'],
  ["awk -i inplace '{print}' /tmp/a.txt", 'allow', 'allow'],
  ["awk -i inplace '{print}' n=1 /tmp/a.txt", 'allow', 'allow'],
  ["gawk --include=inplace '{print}' src/a.ts", 'deny', 'allow'],
  ["gawk --include inplace '{print}' ../bob/a.ts", 'allow', 'deny'],
  ['gawk -i inplace -f /tmp/p.awk src/a.ts', 'deny', 'allow'],
  ["gawk -i inplace -e '{print}' src/a.ts", 'deny', 'allow'],
  ['gawk -i inplace --file /tmp/p.awk src/a.ts', 'deny', 'allow'],
  ["gawk -i inplace --source '{print}' src/a.ts", 'deny', 'allow'],
  ["awk -i other '{print}' src/a.ts", 'allow', 'allow'],
  // find
  ["find -name '*.o' -delete", 'deny', 'allow'],
  ['find /tmp/x ! -name keep -delete', 'allow', 'allow'],
  ['find /tmp/x \\( -name a \\) -delete', 'allow', 'allow'],
  ['find "$D" -delete', 'deny', 'allow'],
  ['find /tmp/x -delete', 'allow', 'allow'],
  ['find . -okdir rm {} \\;', 'deny', 'allow'],
  ['find . -ok rm {} \\;', 'deny', 'allow'],
  ['find . -exec shred {} \\;', 'deny', 'allow'],
  ['find /tmp/x -exec rm {} \\;', 'allow', 'allow'],
  ['find /tmp/x -exec rm -rf {} +', 'allow', 'allow'],
  ['find ../bob -exec unlink {} +', 'deny', 'deny'],
  ['find /tmp/x -exec cat {} \\; -exec sed -i s/a/b/ src/a.ts \\;', 'deny', 'allow'],
  // a deleter under -exec that names its own paths deletes them whatever find matched (allowed before the fix)
  ['find /tmp/x -maxdepth 0 -exec rm -rf src \\;', 'deny', 'allow'],
  ['find /tmp/x -exec rm -rf /ws/src {} +', 'deny', 'deny'],
  ['find . -exec rm -rf ../bob \\;', 'deny', 'deny'],
  ['find /tmp/x -exec rm -rf /tmp/y \\;', 'allow', 'allow'],
  // cp, mv, install, rsync, ln
  ['mv -S .bak /tmp/a /tmp/b', 'allow', 'allow'],
  ['mv --suffix .bak /tmp/a /tmp/b', 'allow', 'allow'],
  ['mv --target-directory /tmp/d /tmp/a', 'allow', 'allow'],
  ['mv --target-directory src /tmp/a', 'deny', 'allow'],
  ['mv -t /tmp/d ../bob/a', 'allow', 'deny'],
  ['install -t src /tmp/a', 'deny', 'allow'],
  ['install -o src -g src /tmp/a /tmp/b', 'allow', 'allow'],
  ['cp $OPTS /tmp/a /tmp/b', 'deny', 'allow'],
  ['rsync --remove-source-files src/a.ts /tmp/x', 'deny', 'allow'],
  ['rsync --remove-source-files ../bob/a.ts /tmp/x', 'allow', 'deny'],
  ['rsync -a ../bob/a.ts /tmp/x', 'allow', 'allow'],
  // sed and perl in place
  ['sed --in-place s/a/b/ src/a.ts', 'deny', 'allow'],
  ['sed -i --expression s/a/b/ src/a.ts', 'deny', 'allow'],
  ['sed -i --expression=s/a/b/ src/a.ts', 'deny', 'allow'],
  ['sed -i --file /tmp/s.sed src/a.ts', 'deny', 'allow'],
  ['sed -i -f /tmp/s.sed src/a.ts', 'deny', 'allow'],
  ['sed -i -l 80 s/a/b/ /tmp/a', 'allow', 'allow'],
  ['sed -i.bak s/a/b/ src/a.ts', 'deny', 'allow'],
  ['sed -n p src/a.ts', 'allow', 'allow'],
  ["perl -i -E 's/a/b/' src/a.ts", 'deny', 'allow'],
  ["perl -i -M strict -e 's/a/b/' /tmp/a", 'allow', 'allow'],
  // dd, truncate, shred, unlink, touch/mkdir, chmod, rename, patch
  ['dd if=/dev/zero of="$F"', 'deny', 'allow'],
  ['dd if=/dev/zero of=/tmp/x', 'allow', 'allow'],
  ['dd if=/dev/zero of=../bob/x', 'allow', 'deny'],
  ['truncate -r src/a.ts /tmp/b', 'allow', 'allow'],
  ['truncate --reference src/a.ts /tmp/b', 'allow', 'allow'],
  ['truncate --size 0 /tmp/b', 'allow', 'allow'],
  ['shred -n 3 /tmp/x', 'allow', 'allow'],
  ['shred --iterations 3 /tmp/x', 'allow', 'allow'],
  ['shred --random-source src/a.ts /tmp/x', 'allow', 'allow'],
  ['unlink ../bob/a', 'allow', 'deny'],
  ['touch ../bob/x', 'allow', 'deny'],
  ['mkdir -m 755 ../bob/x', 'allow', 'deny'],
  ['chmod --reference=/tmp/r ../bob/a', 'allow', 'deny'],
  ['chmod --recursive 755 src', 'deny', 'allow'],
  ['chmod 755 ../bob/a', 'allow', 'deny'],
  ["rename 's/a/b/' ../bob/a", 'allow', 'deny'],
  ['rename a b ../bob/a', 'allow', 'deny'],
  ['patch --dry-run -p1 < /tmp/fix.diff', 'allow', 'allow'],
  // paths after a cd to a directory known only at run time
  ['cd "$D" && echo x | tee /tmp/a.txt', 'allow', 'allow'],
  ['cd "$D" && echo x | tee ~/a.txt', 'allow', 'allow'],
  ['cd "$D" && echo x | tee a.txt', 'deny', 'allow'],
  ['cd "$D/.." && echo x | tee a.txt', 'deny', 'deny'],
  ['cd "$D/.." && echo x | tee /tmp/a.txt', 'allow', 'allow'],
  ['cd "$D/.." && echo x | tee ~/a.txt', 'allow', 'allow'],
  // a dynamic path: the teammate is refused only when it points at a shared area
  ['echo x | tee "$F"', 'deny', 'allow'],
  ['ls ../bob; echo x | tee "$F"', 'deny', 'allow'],
  ['echo x | tee "$D/../x"', 'deny', 'deny'],
  ['echo x | tee "$D/.gitignore"', 'deny', 'allow'],
  ['echo x | tee "$D/.git/config"', 'deny', 'deny'],
  // a run-time path with a static prefix is not an option word: still refused
  ['rm src/$F', 'deny', 'allow'],
  ['rm notes.txt src/$F', 'deny', 'allow'],
  // after `cd a || cd b` a path has two places: a pattern is scratch only if it is in both
  ['cd /tmp/x || cd src; rm *.log', 'deny', 'allow'],
  ['cd /tmp/x || cd src; find . -delete', 'deny', 'allow'],
  ['find /tmp/x src -delete', 'deny', 'allow'],
  ['find /tmp/a-b -delete', 'allow', 'allow'],
  ['find /tmp/x src', 'allow', 'allow'],
  ['cd ../bob && find -name x -delete', 'deny', 'deny'],
  ['find /tmp/x -delete -exec sed -i s/a/b/ src/a.ts \\;', 'deny', 'allow'],
  ['find /tmp/x -exec rm /tmp/y \\; -exec sed -i s/a/b/ src/a.ts \\;', 'deny', 'allow'],
  ['find /tmp/x -exec cat {}', 'allow', 'allow'],
  ['find /tmp/x -exec cp /tmp/c+ src/ \\;', 'deny', 'allow'],
  ['find /tmp/x -exec cp +c src/ \\;', 'deny', 'allow'],
  // an empty output name writes nothing; every output option is checked, not only the first
  ["curl -o '' http://x", 'allow', 'allow'],
  ['curl -o /tmp/a --output-dir src http://x', 'deny', 'allow'],
  // awk: a variable assignment is not a file, a path with `=` in it is
  ["awk -i inplace '{print}' nn=1 /tmp/a.txt", 'allow', 'allow'],
  ["awk -i inplace '{print}' src/k=v.txt", 'deny', 'allow'],
  // an operand list cut short, or none at all
  ['tar', 'allow', 'allow'],
  ['mv -f', 'allow', 'allow'],
  ['mv /tmp/a ../bob/x /tmp/d', 'allow', 'deny'],
  // sed: -i only as an option word
  ['sed s/x-i/y/ src/a.ts', 'allow', 'allow'],
  ['sed --in-place=.bak s/a/b/ src/a.ts', 'deny', 'allow'],
  // option values that are files read, not written
  ['sed -i --expression s/a/b/ /tmp/a', 'allow', 'allow'],
  ['sed -i --file s.sed /tmp/a', 'allow', 'allow'],
  ['sed -i --line-length 80 s/a/b/ /tmp/a', 'allow', 'allow'],
  ['touch -r ../bob/a x', 'allow', 'allow'],
  ['chmod --reference ../bob/a /tmp/x', 'allow', 'allow'],
  ['rmdir ../bob/x', 'allow', 'deny'],
  // rename: perl's -e makes every operand a file (the first one was skipped before the fix); util-linux FROM TO
  ["rename -e 's/a/b/' ../bob/a", 'allow', 'deny'],
  ["rename -e 's/a/b/' src/a.ts /tmp/x", 'deny', 'allow'],
  ["cd ../bob && rename 's/a/b/' a", 'deny', 'deny'],
  ["rename 's/a/b/' ../bob/a x", 'deny', 'deny'],
  // devices are not files
  ['echo x | tee /dev/null', 'allow', 'allow'],
];

describe('file rules, verdict per role', () => {
  for (const [cmd, lead, teammate] of ROWS) {
    it(`${cmd}: lead ${lead}, teammate ${teammate}`, () => {
      expect([verdict('lead', cmd), verdict('teammate', cmd)], `${reason('lead', cmd)} | ${reason('teammate', cmd)}`).toEqual([lead, teammate]);
    });
  }
});

describe('file rules, what a refusal says', () => {
  it('names the verb, the rule and the path', () => {
    expect(reason('lead', 'cd "$D" && echo x | tee a.txt')).toMatch(/write \(tee\) a\.txt after a cd to a dynamic directory/);
    expect(reason('lead', 'echo x | tee "$F"')).toMatch(/write \(tee\) a path computed at run time \("\$F"\)/);
    expect(reason('lead', 'echo x | tee src/a.ts')).toMatch(/write \(tee\) \/ws\/src\/a\.ts inside the workspace \(the lead does not author files\)/);
    expect(reason('lead', 'rm $FLAGS notes.txt')).toMatch(/remove files named at run time/);
    expect(reason('lead', 'rm src/*.ts')).toMatch(/remove every file matching src\/\*\.ts/);
    expect(reason('lead', 'cp $OPTS /tmp/a /tmp/b')).toMatch(/run cp with options computed at run time/);
    expect(reason('teammate', 'ln -s /tmp/a ../bob/x')).toMatch(/link into: /);
    expect(reason('teammate', 'cp /tmp/a ../bob/x')).toMatch(/cp onto: /);
    expect(reason('teammate', 'mv ../bob/a /tmp/x')).toMatch(/mv away: /);
    expect(reason('teammate', 'chmod -R 755 ../bob')).toMatch(/chmod -R: /);
    expect(reason('teammate', 'chmod 755 ../bob/a')).toMatch(/chmod: /);
    expect(reason('lead', "find . -name '*.o' -delete")).toMatch(/delete every matched file \(find -delete\)/);
    expect(reason('lead', 'find . -exec rm {} +')).toMatch(/delete every matched file \(find -exec rm\)/);
    expect(reason('lead', 'tar -xf /tmp/a.tar')).toMatch(/extract an archive into \/ws inside the workspace/);
    expect(reason('lead', 'curl -o src/a.ts http://x')).toMatch(/write \(curl\) \/ws\/src\/a\.ts/);
    expect(reason('lead', "gawk -i inplace '{print}' src/a.ts")).toMatch(/rewrite in place \(awk -i inplace\)/);
    expect(reason('lead', 'sed -i s/a/b/ src/a.ts')).toMatch(/rewrite in place \(sed -i\)/);
    expect(reason('lead', 'dd if=/dev/zero of=src/x')).toMatch(/write \(dd\) \/ws\/src\/x/);
    expect(reason('teammate', 'truncate -s 0 ../bob/a')).toMatch(/truncate: /);
    expect(reason('teammate', 'unlink ../bob/a')).toMatch(/unlink: /);
    expect(reason('teammate', 'rename a b ../bob/a')).toMatch(/rename: /);
    expect(reason('teammate', "rename -e 's/a/b/' ../bob/a")).toMatch(/rename: /);
    expect(reason('teammate', 'rm ../bob/a')).toMatch(/remove: /);
    expect(reason('lead', 'patch -p1 < /tmp/fix.diff')).toMatch(/patch source files \(authoring\)/);
  });
});
