#!/usr/bin/env bash
# Flakiness check: runs each test file alone, n times in a row, and records pass/fail and duration.
#   scripts/flaky-check.sh <n> <file…>      e.g.  nice -n 10 scripts/flaky-check.sh 5 test/teams/*.test.ts
# Every run is a fresh `npx vitest run <file>` (no retries). Results go to reports/flaky/ (gitignored):
# results.tsv (file, run, pass|fail, seconds) and, for a failing run, its full output in <file>.<run>.log.
# A file's runs stop at its first failure (the failure is what needs looking at). Exit status 1 if any failed.
set -u
if [ $# -lt 2 ]; then echo "usage: $0 <runs> <test-file>..." >&2; exit 2; fi
runs=$1; shift
out=reports/flaky
mkdir -p "$out"
tsv="$out/results.tsv"
[ -f "$tsv" ] || printf 'file\trun\tresult\tseconds\tstarted_utc\tload\n' > "$tsv"
failed=0
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
