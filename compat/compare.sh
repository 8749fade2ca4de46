#!/usr/bin/env bash
# Runs scenarios against a local Sluice started on the recorded cluster's files and shows how
# each differs from real Slurm's transcript (what TestDifferential checks, by hand).
#
#   compat/compare.sh [SCENARIO.scn ...]      all scenarios by default
#   KEEP=1 compat/compare.sh ...              reuse the cluster a previous call left running
# The cluster lives in $SLUICE_COMPAT_DIR (default /tmp/sluice-compat); stop it with
#   kill $(cat /tmp/sluice-compat/up.pid)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=${SLUICE_COMPAT_DIR:-/tmp/sluice-compat}
if [ "${KEEP:-0}" != 1 ] || [ ! -f "$B/sluice.env" ]; then
  [ -f "$B/up.pid" ] && kill "$(cat "$B/up.pid")" 2>/dev/null && sleep 3 || true
  rm -rf "$B"; mkdir -p "$B/src"
  for f in slurm.conf gres.conf; do sed "s#@BASE@#$B#g" "$here/conf/$f" > "$B/src/$f"; done
  for f in $(grep -o 'File=[^ ]*' "$B/src/gres.conf" | cut -d= -f2 | sort -u); do
    d=$(dirname "$f"); mkdir -p "$d"
    case "$f" in *\[*) pre=${f%%\[*}; r=${f#*\[}; r=${r%\]*}; for i in $(seq ${r%-*} ${r#*-}); do touch "$pre$i"; done ;; *) touch "$f" ;; esac
  done
  "$here/../sluice" up --slurm-conf "$B/src/slurm.conf" --state-dir "$B" > "$B/up.out" 2>&1 &
  echo $! > "$B/up.pid"
  for _ in $(seq 1 180); do grep -q "Sluice is up" "$B/up.out" 2>/dev/null && break; sleep 1; done
  grep -q "Sluice is up" "$B/up.out" || { cat "$B/up.out"; exit 1; }
fi
source "$B/sluice.env"
port() { grep "^$1=" "$B/etc/slurm.conf" | tail -1 | cut -d= -f2; }
if [ $# -eq 0 ]; then set -- "$here"/scenarios/*.scn; fi
out=$(mktemp)
# Node daemons' ports: ours (the rewritten NodeName lines) for the recording's, in order.
nodeports() { grep -o '^NodeName=.* Port=[0-9,]*' "$1" | sed 's/.* Port=//' | tr ',' '\n'; }
nodemaps=()
while read -r ours theirs; do [ -n "$ours" ] && nodemaps+=(--map "$ours=$theirs"); done \
  < <(paste -d' ' <(nodeports "$B/etc/slurm.conf") <(nodeports "$here/conf/slurm.conf"))
/usr/bin/python3 "$here/difftest.py" run --map "$(port SlurmctldPort)=6817" --map "$(port AccountingStoragePort)=6819" \
  "${nodemaps[@]}" --map "$B={BASE}" "$@" > "$out"
same=0; differ=0
for scn in "$@"; do
  name=$(basename "$scn" .scn)
  got=$(awk -v n="=== $name" '$0==n{on=1;next} /^=== /{on=0} on' "$out")
  if diff -u --label "real Slurm: $name" --label "Sluice: $name" "$here/expected/$name.txt" <(printf '%s\n' "$got") > "$out.diff"; then
    same=$((same+1)); echo "same    $name"
  else
    differ=$((differ+1)); echo "DIFFERS $name"; [ "${QUIET:-0}" = 1 ] || cat "$out.diff"
  fi
done
echo "$same same, $differ differ"
rm -f "$out" "$out.diff"
