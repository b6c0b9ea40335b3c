#!/bin/sh
# Attack: 8 `thclaws team budget` processes at once for 8 different teammates, 5 rounds; every limit must survive.
# Run: sh attacks/budget-race.sh
set -u
T="$(cd "$(dirname "$0")/.." && pwd)/bin/thclaws"
W=$(mktemp -d); cd "$W"; git init -q; export HOME="$W/home"; mkdir -p "$HOME"
"$T" team create demo --members m1,m2,m3,m4,m5,m6,m7,m8 >/dev/null
for round in 1 2 3 4 5; do
  for i in 1 2 3 4 5 6 7 8; do "$T" team budget "m$i" --tokens "$((round * 1000 + i))" >/dev/null 2>"$W/err$i" & done
  wait
  n=$(node -e 'const b=require(process.argv[1]);console.log(Object.keys(b.teammates).length)' "$W/.thclaws/state/team/budgets.json")
  echo "round $round: $n of 8 limits present; errors: $(cat "$W"/err* | tr '\n' ' ')"
done
ls "$W/.thclaws/state/team" | grep -c corrupt
rm -rf "$W"
