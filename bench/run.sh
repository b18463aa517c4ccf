#!/usr/bin/env bash
# Runs dbgov side by side with curl and jq against the reference server and
# writes bench/results.md. Installs curl and jq from Debian's packages when
# they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in curl jq; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
go run ./bench/runner -bin bin/dbgov -out bench/results.md "$@"
