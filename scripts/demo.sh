#!/usr/bin/env bash
# Starts the reference server on a free loopback port, runs a handful of
# dbgov commands against it so their tables and JSON can be seen, and stops it.
set -euo pipefail
bin=${1:-bin/dbgov}
log=$(mktemp)
cfg=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$log" "$cfg"' EXIT

"$bin" dev-server --addr 127.0.0.1:0 >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q 'export DBGOV_URL' "$log" && break
  sleep 0.05
done
line=$(grep 'export DBGOV_URL' "$log") || { cat "$log" >&2; exit 1; }
eval "$line"
export DBGOV_CONFIG="$cfg/config.yaml"
echo "reference server at $DBGOV_URL"

run() {
  printf '\n\033[1m$ dbgov %s\033[0m\n' "$*"
  "$bin" "$@"
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
printf '\n$ dbgov review-configs get missing   # exits 5: not found\n'
"$bin" review-configs get missing || echo "(exit code $?)"
