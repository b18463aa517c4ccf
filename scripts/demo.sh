#!/usr/bin/env bash
# Starts the reference server on a free loopback port, with a generated fleet
# of 12 databases, runs a handful of dbgov commands against it so their
# tables and JSON can be seen, and stops it.
set -euo pipefail
bin=${1:-bin/dbgov}
log=$(mktemp)
cfg=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$log" "$cfg"' EXIT

"$bin" dev-server --addr 127.0.0.1:0 --generate-databases 12 >"$log" 2>&1 &
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

# A fleet: the same command over many databases, and the CI drift gate
# against the golden schema, which the generated databases share unless
# they drifted.
seq -f 'fleet-pg/db%04g' 1 12 >"$cfg/dbs.txt"
echo 'fleet-pg/missing' >>"$cfg/dbs.txt"
cat >"$cfg/golden.sql" <<'SQL'
CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL);
CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, total numeric);
SQL
printf '\n$ dbgov policies list --databases-from dbs.txt --type masking_rule   # exits 5: one database is missing\n'
"$bin" policies list --databases-from "$cfg/dbs.txt" --type masking_rule || echo "(exit code $?)"
sed -i '$d' "$cfg/dbs.txt"
run policies list --databases-from "$cfg/dbs.txt" --type masking_rule -o json \
  --jq '.results[] | select(.response.policies | any(.enforce != true)) | .database'
printf '\n$ dbgov schema diff --databases-from dbs.txt --schema-file golden.sql --exit-code   # exits 9: drift\n'
"$bin" schema diff --databases-from "$cfg/dbs.txt" --schema-file "$cfg/golden.sql" --exit-code || echo "(exit code $?)"
