#!/usr/bin/env bash
# `make install-check`: installs phr into a temporary PREFIX and uses the installed copy the way a
# user would, from another directory with only that PREFIX on PATH: `phr --version`, `phr init`
# and `phr doc add` (which needs the installed phr-render beside phr). Then `make uninstall` must
# leave no file behind.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
prefix="$(mktemp -d /tmp/phr-install-check.XXXXXX)"
work="$(mktemp -d /tmp/phr-install-work.XXXXXX)"
trap 'rm -rf "$prefix" "$work"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

make --no-print-directory install PREFIX="$prefix" >/dev/null
for file in bin/phr bin/phr-render share/man/man1/phr.1 share/bash-completion/completions/phr \
            share/zsh/site-functions/_phr share/fish/vendor_completions.d/phr.fish; do
    [ -s "$prefix/$file" ] || fail "make install did not install $file"
done
grep -q '^\.Dt PHR 1' "$prefix/share/man/man1/phr.1" || fail "phr.1 is not the manual page of phr (section 1)"
grep -q 'doc' "$prefix/share/man/man1/phr.1" || fail "phr.1 does not describe the doc commands"
bash -n "$prefix/share/bash-completion/completions/phr" || fail "the bash completion script does not parse"

built="$(swift build -c release --static-swift-stdlib --show-bin-path)/phr"
run() {
    (cd "$work" && env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$work" LANG=C.UTF-8 \
        PHR_VAULT="$work/vault" PHR_PASSPHRASE_FILE="$work/passphrase" phr "$@")
}
[ "$(run --version)" = "$("$built" --version)" ] || fail "the installed phr reports another version than the build"
printf 'correct horse battery staple\n' > "$work/passphrase"
chmod 600 "$work/passphrase"
run init >/dev/null 2>"$work/init.stderr" || fail "phr init failed: $(cat "$work/init.stderr")"
added="$(run doc add "$root/Samples/documents/prescription-amoxicillin.pdf")" || fail "phr doc add failed: $added"
[[ "$added" =~ ^added\ [0-9a-z]{6}\ prescription\ .*\ 1\ page$ ]] || fail "unexpected phr doc add output: $added"
# Captured first: `phr search | grep -q` under pipefail fails whenever grep exits before phr's
# last write (phr then dies of SIGPIPE, as any Unix filter does).
found="$(run search amoxicillin)" || fail "phr search failed: $found"
grep -q 'amoxicillin' <<<"$found" || fail "the added document is not found by phr search"

make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left="$(find "$prefix" -type f)"
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install-check: ok (installed, phr --version, init, doc add with the installed phr-render, search, uninstalled)"
