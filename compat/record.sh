#!/usr/bin/env bash
# Records the differential scenarios against real Slurm 22.05 (../shared/tools/real-slurm):
# starts it fresh in the suite's shape, then runs each scenario and writes its transcript to
# compat/expected/. The transcripts are real Slurm's behaviour: never edit them by hand.
#
#   compat/record.sh                     every scenario
#   compat/record.sh compat/scenarios/0*.scn
# Needs root (the scenarios act as sluiceuser1/sluiceuser2 too; they are created when missing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=${REAL_SLURM_TOOLS:-$here/../../shared/tools/real-slurm}
export REAL_SLURM_DIR=${REAL_SLURM_DIR:-/tmp/real-slurm}
B=$REAL_SLURM_DIR
for u in sluiceuser1 sluiceuser2; do id -u "$u" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$u"; done
if [ "${KEEP:-0}" != 1 ]; then
  bash "$tools/down.sh" >/dev/null 2>&1 || true
  FRESH=1 bash "$tools/up.sh" >/dev/null
  # The suite's one addition to up.sh's cluster: job ids far above any pid, so that the
  # normalizer can tell them apart (difftest.py FIRST_JOB_ID).
  echo "FirstJobId=5000000" >> "$B/etc/slurm.conf"
  kill "$(cat "$B/run/slurmctld.pid")"; while kill -0 "$(cat "$B/run/slurmctld.pid")" 2>/dev/null; do sleep 0.2; done
  rm -rf "$B/state/"*
  slurmctld -f "$B/etc/slurm.conf"
  export SLURM_CONF=$B/etc/slurm.conf
  for _ in $(seq 1 120); do [ "$(sinfo -h -o %t 2>/dev/null | sort -u)" = idle ] && break; sleep 0.5; done
  # The files the scenarios ran on, with the state directory as a placeholder: TestDifferential
  # starts Sluice on them (./sluice up --slurm-conf).
  for f in slurm.conf gres.conf; do sed "s#$B#@BASE@#g" "$B/etc/$f" > "$here/conf/$f"; done
fi
export SLURM_CONF=$B/etc/slurm.conf
if [ $# -eq 0 ]; then set -- "$here"/scenarios/*.scn; fi
exec /usr/bin/python3 "$here/difftest.py" record "$@"
