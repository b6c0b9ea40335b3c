#!/usr/bin/env bash
# Flakiness check, two modes (no retries in either):
#   scripts/flaky-check.sh <n> <file…>          each file alone, n times in a row: a fresh `npx vitest run <file>`
#   scripts/flaky-check.sh --batch <n> <file…>  n rounds of one `npx vitest run <file…>` over all the files, with
#                                               vitest's own parallelism (maxWorkers from vitest.config.mts)
# e.g.  nice -n 10 scripts/flaky-check.sh --batch 5 test/desktop/*.test.ts test/team/*.test.ts
# Results go to reports/flaky/ (gitignored): results.tsv (file, run, pass|fail, seconds, start, load average).
# Alone: a failing run's whole output is kept in <file>.<run>.log and that file's runs stop at its first failure.
# Batch: the run column is `b<round>`, seconds is the file's own time in the round (from vitest's JSON report),
# and every round's whole output is kept (batch-<stamp>-<round>.log and .json) whenever a file in it failed,
# so each failure can be looked at. Exit status 1 if any run failed.
# FLAKY_FIRST_ROUND=k numbers the batch rounds from k: two lists run in turn, one round at a time
# (`FLAKY_FIRST_ROUND=$r scripts/flaky-check.sh --batch 1 <list>` for each r), keep their round numbers apart.
set -u
batch=0
if [ "${1:-}" = --batch ]; then batch=1; shift; fi
if [ $# -lt 2 ]; then echo "usage: $0 [--batch] <runs> <test-file>..." >&2; exit 2; fi
runs=$1; shift
out=reports/flaky
mkdir -p "$out"
tsv="$out/results.tsv"
[ -f "$tsv" ] || printf 'file\trun\tresult\tseconds\tstarted_utc\tload\n' > "$tsv"
failed=0

if [ "$batch" = 1 ]; then
  stamp0=$(date -u +%Y%m%dT%H%M%S)
  first=${FLAKY_FIRST_ROUND:-1}
  for i in $(seq "$first" $((first + runs - 1))); do
    stamp=$(date -u +%H:%M:%S); load=$(cut -d' ' -f1 /proc/loadavg)
    base="$out/batch-$stamp0-$$-$i"
    npx vitest run --reporter=default --reporter=json --outputFile.json="$base.json" "$@" > "$base.log" 2>&1
    # One row per file given, from the JSON report; a file that is missing from the report (vitest died, or it
    # never ran) counts as failed.
    if node - "$base.json" "$tsv" "b$i" "$stamp" "$load" "$@" <<'EOF'; then rm -f "$base.log" "$base.json"; else failed=1; echo "  output: $base.log, $base.json"; fi
const fs = require('node:fs');
const path = require('node:path');
const [json, tsv, run, stamp, load, ...files] = process.argv.slice(2);
let report = { testResults: [] };
try { report = JSON.parse(fs.readFileSync(json, 'utf8')); } catch { /* counted as failures below */ }
const byFile = new Map(report.testResults.map((r) => [path.relative(process.cwd(), r.name), r]));
let bad = 0;
for (const f of files) {
  const r = byFile.get(path.normalize(f));
  const result = r && r.status === 'passed' ? 'pass' : 'fail';
  const secs = r ? ((r.endTime - r.startTime) / 1000).toFixed(1) : '-';
  fs.appendFileSync(tsv, `${f}\t${run}\t${result}\t${secs}\t${stamp}\t${load}\n`);
  if (result === 'fail') {
    bad++;
    const why = r ? r.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName).join('; ') || r.message : 'not in the report';
    console.log(`  FAIL ${f}: ${why}`);
  }
}
console.log(`round ${run}: ${files.length - bad} of ${files.length} files passed`);
process.exit(bad ? 1 : 0);
EOF
  done
  exit $failed
fi

for f in "$@"; do
  passes=0
  for i in $(seq 1 "$runs"); do
    start=$(date +%s.%N); stamp=$(date -u +%H:%M:%S); load=$(cut -d' ' -f1 /proc/loadavg)
    log="$out/$(echo "$f" | tr '/' '_').$i.log"
    if npx vitest run "$f" > "$log" 2>&1; then result=pass; passes=$((passes + 1)); rm -f "$log"; else result=fail; fi
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    printf '%s\t%s\t%s\t%.1f\t%s\t%s\n' "$f" "$i" "$result" "$secs" "$stamp" "$load" >> "$tsv"
    echo "$f run $i/$runs: $result (${secs%.*} s, load $load)"
    if [ "$result" = fail ]; then failed=1; echo "  output: $log"; break; fi
  done
  echo "$f: $passes of $runs passed"
done
exit $failed
