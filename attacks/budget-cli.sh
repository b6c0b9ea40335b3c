#!/bin/sh
# Attack: `thclaws team budget` bad input and a malformed budgets.json. Run: sh attacks/budget-cli.sh
set -u
T="$(cd "$(dirname "$0")/.." && pwd)/bin/thclaws"
W=$(mktemp -d); cd "$W"; git init -q; export HOME="$W/home"; mkdir -p "$HOME"
"$T" team create demo --members alice,bob >/dev/null
run() { echo "== team budget $*"; "$T" team budget "$@"; echo "   rc=$?"; }
run nobody --usd 5            # unknown member: accepted (rc 0)
run lead --usd 1              # the lead is never guarded: accepted, never enforced
run alice --clear --usd 5     # contradictory: --clear wins silently
run alice --usd 5 --tokens 100
run alice --tokens 1000       # raising tokens silently drops alice's $5 limit
cat .thclaws/state/team/budgets.json
echo "== one bad entry quarantines the whole file; the team's \$5 limit is gone, rc 0, nothing on stderr"
printf '{"team":{"usd":5},"roles":{},"teammates":{"alice":{"usd":-3}}}' > .thclaws/state/team/budgets.json
run bob --tokens 50
cat .thclaws/state/team/budgets.json; echo; ls .thclaws/state/team | grep corrupt
rm -rf "$W"
