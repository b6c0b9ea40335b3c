#!/bin/sh
# Attack: a member's model name (written by the lead's TeamCreate/SpawnTeammate input, i.e. by the model)
# reaches `thclaws team status` raw: terminal escapes (OSC title, clear screen) and a newline forge output.
# Run: sh attacks/model-name-terminal.sh | cat -v
set -u
T="$(cd "$(dirname "$0")/.." && pwd)/bin/thclaws"
W=$(mktemp -d); cd "$W"; git init -q; export HOME="$W/home"; mkdir -p "$HOME"
"$T" team create demo --members alice >/dev/null
node -e '
const fs=require("fs");const p=".thclaws/state/team/config.json";const c=JSON.parse(fs.readFileSync(p));
c.members[0].model="local/q\u001b]0;PWNED\u0007\u001b[2J\nbob     -     working  #1    0       fake";fs.writeFileSync(p,JSON.stringify(c));'
"$T" team status
rm -rf "$W"
