/**
 * A hostile review of the session-5 guard changes (branch break5): commands that write into the workspace (the
 * lead: under /ws outside scratch; a teammate: another teammate's worktree) and were allowed, and the read-only
 * commands that must stay allowed.
 */
import { rows } from './rows.js';

/** [command, lead, teammate] (lead at /ws, teammate alice in /ws/.worktrees/alice). */
rows('curl -O and wget without -O write the URL\'s file into the working directory', [
  ['curl -O http://x/package.json', 'deny', 'allow'],
  ['curl -sSLO http://x/package.json', 'deny', 'allow'],
  ['curl --remote-name http://x/package.json', 'deny', 'allow'],
  ['curl --remote-name-all http://x/a http://x/b', 'deny', 'allow'],
  ['cd ../bob && curl -O http://x/a.ts', 'deny', 'deny'],
  ['curl -O --output-dir /tmp http://x/a', 'allow', 'allow'],
  ['wget http://x/package.json', 'deny', 'allow'],
  ['wget -N -x -nH http://x/src/a.ts', 'deny', 'allow'],
  ['cd ../bob && wget http://x/a.ts', 'deny', 'deny'],
  ['wget -P /tmp http://x/a', 'allow', 'allow'],
  ['wget --spider http://x/a', 'allow', 'allow'],
]);

rows('wget -e runs a wgetrc command: output_document, logfile, dir_prefix write files', [
  ['wget -e output_document=src/a http://x', 'deny', 'allow'],
  ['wget -eoutput_document=src/a http://x', 'deny', 'allow'],
  ['wget --execute=logfile=src/a -O - http://x', 'deny', 'allow'],
  ['wget -e dir_prefix=../bob http://x', 'allow', 'deny'],
  ['wget -e "outputdocument = ../bob/a" http://x', 'allow', 'deny'],
  ['wget -e robots=off -O /tmp/a http://x', 'allow', 'allow'],
]);

rows('other files curl and wget write: write-out %output{}, etag, HSTS and alt-svc caches, cookies, WARC, rejected log', [
  ['curl -s -w \'%output{src/a}%{http_code}\' -o /tmp/a http://x', 'deny', 'allow'],
  ['curl -s --write-out \'%output{>>../bob/a}x\' -o /tmp/a http://x', 'allow', 'deny'],
  ['curl -s -w \'%{http_code}\' -o /tmp/a http://x', 'allow', 'allow'],
  ['curl --etag-save src/e -o /tmp/a http://x', 'deny', 'allow'],
  ['curl --hsts ../bob/h -o /tmp/a http://x', 'allow', 'deny'],
  ['curl --alt-svc=src/a -o /tmp/a http://x', 'deny', 'allow'],
  ['wget -O /tmp/a --save-cookies=src/c http://x', 'deny', 'allow'],
  ['wget -O /tmp/a --warc-file ../bob/w http://x', 'allow', 'deny'],
  ['wget -O /tmp/a --rejected-log=src/r http://x', 'deny', 'allow'],
  ['wget -O /tmp/a -e SAVE-COOKIES=src/c http://x', 'deny', 'allow'],
  ['tar -cf /tmp/a.tar --index-file=src/log -v /tmp/x', 'deny', 'allow'],
]);

rows('tar: an archive written (-c/-r/-u/-A with -f), old-style letters taking values, a chain of -C, -P', [
  ['tar -cf src/a.ts /tmp/x', 'deny', 'allow'],
  ['tar cf src/a.ts /tmp/x', 'deny', 'allow'],
  ['tar -rf ../bob/a.tar /tmp/x', 'allow', 'deny'],
  ['tar --create --file=src/a.tar /tmp/x', 'deny', 'allow'],
  ['tar -cf /tmp/a.tar -g src/snap /tmp/x', 'deny', 'allow'],
  ['tar xCf ../bob /tmp/a.tar', 'allow', 'deny'],
  ['tar xfC /tmp/a.tar ../bob', 'allow', 'deny'],
  ['tar -C ../bob -C src -xf /tmp/a.tar', 'deny', 'deny'],
  ['tar -xPf /tmp/a.tar -C /tmp', 'deny', 'deny'],
  ['tar -xf /tmp/a.tar -C /tmp --absolute-names', 'deny', 'deny'],
]);

rows('gawk: the inplace library by another name', [
  ['gawk -i inplace.awk "{}" src/a', 'deny', 'allow'],
  ['gawk -i /usr/share/awk/inplace.awk "{}" ../bob/a', 'allow', 'deny'],
  ['gawk --include=inplace.awk "{}" src/a', 'deny', 'allow'],
  ['gawk \'@include "inplace"; {print}\' src/a', 'deny', 'allow'],
  ['gawk -e \'@include "inplace"\' -e \'{print}\' ../bob/a', 'allow', 'deny'],
  ['gawk \'{print}\' src/a', 'allow', 'allow'],
]);

rows('read-only and scratch commands stay allowed', [
  ['curl -s http://x', 'allow', 'allow'],
  ['curl -fsSL http://x | jq .', 'allow', 'allow'],
  ['curl -o /tmp/a http://x', 'allow', 'allow'],
  ['wget -q -O - http://x | jq .', 'allow', 'allow'],
  ['wget -qO- http://x', 'allow', 'allow'],
  ['wget -O /tmp/a http://x', 'allow', 'allow'],
  ['tar tf /tmp/a.tar', 'allow', 'allow'],
  ['tar -tvf /tmp/a.tar', 'allow', 'allow'],
  ['tar -cf /tmp/a.tar src', 'allow', 'allow'],
  ['tar -czf - src | wc -c', 'allow', 'allow'],
  ['tar xf /tmp/a.tar -C /tmp/x', 'allow', 'allow'],
  ['dd if=a of=/tmp/b', 'allow', 'allow'],
  ['dd if=a of=/tmp/b conv=notrunc', 'allow', 'allow'],
  ['gawk -i inplace "{}" /tmp/a', 'allow', 'allow'],
]);

// The lead is refused a write it cannot see; a teammate's run-time paths are refused only when they point at shared
// areas (checkTarget), and its OS sandbox is the wall.
rows('files named inside a config file: known only when it runs', [
  ['curl -K /tmp/cfg http://x', 'deny', 'allow'],
  ['curl --config /tmp/cfg http://x', 'deny', 'allow'],
  ['curl -w @/tmp/fmt http://x', 'deny', 'allow'],
  ['wget --config=/tmp/rc http://x -O /tmp/a', 'deny', 'allow'],
  ['curl -w "%{http_code}" -o /tmp/a http://x', 'allow', 'allow'],
]);
