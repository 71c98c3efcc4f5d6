#!/usr/bin/env bash
# `make demo`: shows phr on a throwaway vault in a temporary directory, with the sample
# documents of Samples/ and records for their fictional patient, Alex Example. The vault is
# removed at the end unless PHR_DEMO_KEEP=1; the PDFs it makes for a person to look at (the
# share bundle, the emergency card, the health report) are kept in .build/demo/.
set -euo pipefail
phr=${1:?usage: demo.sh PATH_TO_PHR}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/phr-demo.XXXXXX)
if [ "${PHR_DEMO_KEEP:-}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi
out="$here/.build/demo"
mkdir -p "$out"
rm -f "$out"/*.pdf "$out"/*.json

export PHR_VAULT="$work/vault"
printf '%s\n' 'demo passphrase, never use it for real' > "$work/passphrase"
chmod 600 "$work/passphrase"
export PHR_PASSPHRASE_FILE="$work/passphrase"
# Drug information comes from the recorded answers the tests use: the demo needs no network.
export PHR_MEDAPI_MODE=replay PHR_MEDAPI_CASSETTES="$here/Tests/Fixtures/cassettes"

if [ -t 1 ]; then bold=$'\033[1m' dim=$'\033[2m' plain=$'\033[0m'; else bold= dim= plain=; fi
# Shell-quotes what needs it, so a shown command can be copied as it is.
shown() {
    local arg out=""
    for arg in "$@"; do
        if [[ -z $arg || $arg =~ [^A-Za-z0-9_./:=,+@%-] ]]; then out+=" '${arg//\'/\'\\\'\'}'"; else out+=" $arg"; fi
    done
    printf '%s' "${out# }"
}
# Runs `phr ARGS...`, showing the command as a user would type it.
step() { printf '\n%s$ phr %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$phr" "$@"; }
# Runs `phr ARGS...` quietly: records the demo needs but does not need to show.
quiet() { "$phr" "$@" > /dev/null; }
section() { printf '\n%s== %s%s\n' "$bold" "$1" "$plain"; }
day() { date -d "$1" +%F; }

section "A vault: encrypted SQLite and blobs under one passphrase"
step init
# One scrypt derivation, then the keys stay in the kernel keyring for the rest of the demo.
step unlock --for 15m

section "Documents: stored encrypted, text extracted in a sandbox, type and date guessed"
step doc add "$here/Samples/documents"
step doc list
lab=$("$phr" doc list --type lab --json | sed -n 's/.*"id" : "\([0-9a-z]*\)".*/\1/p' | head -n 1)
step doc show "$lab"

section "Search: offline, ranked, with snippets; typos forgiven"
step search ferritin
step search '"iron deficiency" OR pneumonia type:discharge'
step search amoxicilin

section "Records: medical ID, conditions, medications with a dose log and a dose guard"
step id set --name "Alex Example" --dob 1984-07-22 --sex male --blood-type A+ --height 178cm --weight 74kg
step condition add "Iron deficiency anemia" --since 2025-03
quiet condition add "Community-acquired pneumonia" --since 2025-02 --resolved 2025-02-28
step med add Citalopram --dose "20 mg" --form tablet --schedule 08:00 --prescriber "Dr. Jordan Sample"
step med add Ibuprofen --dose "400 mg" --form tablet --as-needed --min-interval 6h --max-per-day 3
quiet med add Amoxicillin --dose "500 mg" --form capsule --schedule 08:00,20:00 --start 2025-05-13 --end 2025-05-22
step med take ibuprofen
step med take ibuprofen || true
step med due

section "Drug information (RxNorm, openFDA), cached in the vault for offline use"
step med info citalopram
step med check --with linezolid || true
PHR_OFFLINE=1 quiet med info citalopram
echo "${dim}(PHR_OFFLINE=1 phr med info citalopram: the same answer, from the vault's cache)${plain}"

section "More records: allergies, immunizations, appointments (.ics too), contacts"
step allergy add "sulfonamide antibiotics" --reaction hives --severity moderate --category medication
quiet allergy add latex --reaction "contact dermatitis" --severity mild --category environment
for vaccine in "MMR|1989-08-19" "Tdap|2019-06-14" "Influenza|2024-10-14" "COVID-19 mRNA|2024-10-14"; do
    quiet immunization add "${vaccine%|*}" --date "${vaccine#*|}"
done
step appt add --with "Dr. Lee" --at "$(day '+11 days') 10:15" --where "Hematology clinic, room 4" \
    --reason "Follow-up of anemia" --notes "Bring the last lab report"
quiet contact add "Jamie Example" --phone "+1 555 0100" --emergency --relation spouse
step import "$here/Samples/records/clinic-invitation.ics"
step appt list
step emergency

section "Daily health log: water, sleep, workouts, meals, weight; goals, streaks, stats"
# A week of entries, each only if its time has passed (the log refuses the future).
at() { if [ "$(date -d "$1" +%s)" -le "$(date +%s)" ]; then shift; quiet log "$@"; fi; }
for offset in 7 6 5 4 3 2 1 0; do
    when=$(day "-$offset days")
    at "$when 06:50" sleep 7h50m --to "$when 06:50"
    for time in 08:30 11:00 14:00 17:30; do at "$when $time" water 500ml --at "$when $time"; done
    if [ $((offset % 3)) -ne 0 ]; then at "$when 20:00" water 1cup --drink tea --at "$when 20:00"; fi
    if [ $((offset % 2)) -eq 0 ]; then at "$when 18:40" workout 40min --type run --to "$when 18:40"; fi
    at "$when 19:30" meal 2100kcal --meal dinner --at "$when 19:30"
done
step log water + --drink coffee
step stats water --week
step stats
step bmi
step goal suggest

section "Sharing with a clinician"
step share --for "Dr. Lee" --since 2025-01-01 --out "$out/bundle.pdf" --fhir "$out/bundle.ips.json"
step emergency --pdf "$out/emergency-card.pdf"
step report --days 30 --out "$out/health-report.pdf"

section "Integrity and backups"
step status
step check
step backup --out "$work/vault.phrbak"
step restore "$work/vault.phrbak" --vault "$work/restored"
step lock

echo
echo "${bold}share bundle for Dr. Lee: $out/bundle.pdf${plain}"
echo "${dim}also: $out/bundle.ips.json (HL7 IPS), $out/emergency-card.pdf, $out/health-report.pdf${plain}"
echo "${dim}demo vault: $PHR_VAULT (removed on exit; PHR_DEMO_KEEP=1 keeps it)${plain}"
