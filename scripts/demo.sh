#!/usr/bin/env bash
# Starts the reference server on a free loopback port, with a generated fleet
# of 12 databases, runs a handful of dbgov commands against it so their tables
# and JSON can be seen, and stops it. Each command is shown first as it can be
# pasted in the repository's root; bold only on a terminal.
set -euo pipefail
bin=${1:-bin/dbgov}
PATH="$(cd "$(dirname "$bin")" && pwd):$PATH"
cd "$(dirname "$0")/.."
log=$(mktemp)
cfg=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$log" "$cfg"' EXIT

dbgov dev-server --addr 127.0.0.1:0 --generate-databases 12 >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q 'export DBGOV_URL' "$log" && break
  sleep 0.05
done
line=$(grep 'export DBGOV_URL' "$log") || { cat "$log" >&2; exit 1; }
eval "$line"
export DBGOV_CONFIG="$cfg/config.yaml"
echo "reference server at $DBGOV_URL"

bold= plain=
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
  bold=$'\033[1m' plain=$'\033[0m'
fi

# show prints "$ dbgov ARGS", each argument quoted for the shell where it needs it.
show() {
  local out='$ dbgov' a q="'"
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9@%+=:,./_-]+$ ]]; then
      out+=" $a"
    else
      out+=" '${a//$q/$q\\$q$q}'"
    fi
  done
  printf '\n%s%s%s\n' "$bold" "$out" "$plain"
}

run() {
  show "$@"
  dbgov "$@"
}

# fails runs a shell line meant to exit with code $1, and says so.
fails() {
  local rc=0
  printf '\n%s$ %s%s\n' "$bold" "$2" "$plain"
  eval "$2" || rc=$?
  echo "(exit code $rc)"
  [ "$rc" -eq "$1" ]
}

run idps list
run users batch-get alice@example.com bob@example.com ci-bot@example.com
run review-configs get sql-review-prod
run policies list --instance prod-pg --database orders
run policies list --instance prod-pg --database orders --type masking_rule -o name
run idps list -o json
run schema diff --instance prod-pg --database orders --changelog 101 --target-changelog 102
run catalog get --instance prod-pg --database orders
run catalog set --instance prod-pg --database orders --schema public --table customers --column email --label gdpr=art-9 --dry-run -o json --jq '.changes'
run catalog set --instance prod-pg --database orders --schema public --table customers --column email --label gdpr=art-9
run users batch-get alice@example.com --jq '.users[] | "\(.email) \(.userType) mfa=\(.mfaEnabled // false)"'
fails 5 'dbgov review-configs get missing'

# A fleet: the same command over many databases, and the CI drift gate
# against the golden schema, which the generated databases share unless
# they drifted.
fails 5 '(cat docs/examples/dbs.txt; echo fleet-pg/missing) | dbgov policies list --databases-from - --type masking_rule'
run policies list --databases-from docs/examples/dbs.txt --type masking_rule -o json \
  --jq '.results[] | select(.response.policies | any(.enforce != true)) | .database'
fails 9 'dbgov schema diff --databases-from docs/examples/dbs.txt --schema-file docs/examples/golden.sql --exit-code'
