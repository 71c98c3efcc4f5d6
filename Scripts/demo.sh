#!/usr/bin/env bash
# `make demo`: shows phr on a throwaway vault in a temporary directory. Nothing outside that
# directory is touched; it is removed at the end unless PHR_DEMO_KEEP=1.
set -euo pipefail
phr=${1:?usage: demo.sh PATH_TO_PHR}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/phr-demo.XXXXXX)
if [ "${PHR_DEMO_KEEP:-}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi

export PHR_VAULT="$work/vault"
printf '%s\n' 'demo passphrase, never use it for real' > "$work/passphrase"
chmod 600 "$work/passphrase"
export PHR_PASSPHRASE_FILE="$work/passphrase"

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
# Runs `phr ARGS...`, showing the command as a user would type it.
step() { printf '\n%s$ phr %s%s\n' "$bold" "$*" "$plain"; "$phr" "$@"; }

step init
step doc add "$here/Samples/documents"
step doc list
lab=$("$phr" doc list --type lab --json | sed -n 's/.*"id" : "\([0-9a-z]*\)".*/\1/p' | head -n 1)
step doc show "$lab"
step search ferritin
step search '"iron deficiency" OR pneumonia type:discharge'
step search amoxicilin
step status
step check
step backup --out "$work/vault.phrbak"
step restore "$work/vault.phrbak" --vault "$work/restored"
echo
echo "demo vault: $PHR_VAULT (removed on exit; PHR_DEMO_KEEP=1 keeps it)"
