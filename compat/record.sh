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
  if [ -f "$B/run/slurmrestd.pid" ]; then kill "$(cat "$B/run/slurmrestd.pid")" 2>/dev/null || true; fi
  FRESH=1 bash "$tools/up.sh" >/dev/null
  # The suite's one addition to up.sh's cluster: job ids far above any pid, so that the
  # normalizer can tell them apart (difftest.py FIRST_JOB_ID).
  echo "FirstJobId=5000000" >> "$B/etc/slurm.conf"
  # And tokens, for the REST scenarios (@rest): slurmrestd passes them on to slurmctld.
  dd if=/dev/urandom of="$B/etc/jwt_hs256.key" bs=32 count=1 2>/dev/null
  chmod 600 "$B/etc/jwt_hs256.key"
  printf 'AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s\n' "$B/etc/jwt_hs256.key" >> "$B/etc/slurm.conf"
  # slurmdbd checks the tokens of the /slurmdb/ requests itself (without these lines it
  # answers them "Protocol authentication error"): restarted on the same key.
  if [ -f "$B/etc/slurmdbd.conf" ]; then
    printf 'AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s\n' "$B/etc/jwt_hs256.key" >> "$B/etc/slurmdbd.conf"
    kill "$(cat "$B/run/slurmdbd.pid")"; while kill -0 "$(cat "$B/run/slurmdbd.pid")" 2>/dev/null; do sleep 0.2; done
    SLURM_CONF=$B/etc/slurm.conf slurmdbd
    dbd_port=$(grep '^DbdPort=' "$B/etc/slurmdbd.conf" | cut -d= -f2)
    for _ in $(seq 1 60); do ss -ltn | grep -q ":$dbd_port " && break; sleep 0.5; done
  fi
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
# Debian's slurmrestd 22.05 (data parser v0.0.38), as an unprivileged user, passing each
# request's token on (SLURM_JWT=daemon).
rest_port=${RESTD_PORT:-6830}
command -v slurmrestd >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmrestd >/dev/null
if ! { [ -f "$B/run/slurmrestd.pid" ] && kill -0 "$(cat "$B/run/slurmrestd.pid")" 2>/dev/null; }; then
  runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" SLURM_JWT=daemon \
    slurmrestd -a rest_auth/jwt -s openapi/v0.0.38,openapi/dbv0.0.38 "127.0.0.1:$rest_port" \
    > "$B/log/slurmrestd.log" 2>&1 &
  echo $! > "$B/run/slurmrestd.pid"
fi
export SLURMRESTD_URL=http://127.0.0.1:$rest_port
if [ $# -eq 0 ]; then set -- "$here"/scenarios/*.scn; fi
exec /usr/bin/python3 "$here/difftest.py" record "$@"
