#!/usr/bin/env bash
# Starts a local cluster (./sluice up), runs a GPU job, and checks both daemons' /metrics with
# `promtool check metrics` (Debian: apt-get install prometheus), in Prometheus text and
# OpenMetrics. Prints the series it saw. Exit status 0 when every check passes.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
command -v promtool >/dev/null || { echo "check-metrics: promtool not found (apt-get install prometheus)" >&2; exit 2; }
state=$(mktemp -d)
log="$state/up.log"
cd "$root"
setsid ./sluice up --state-dir "$state/cluster" --nodes 1 --gpus 2 >"$log" 2>&1 &
up=$!
cleanup() {
  [ -n "${SLURM_CONF:-}" ] && (cd "$state" && scancel 1 2>/dev/null || true)
  kill -TERM "$up" 2>/dev/null || true
  wait "$up" 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
for _ in $(seq 150); do
  grep -q '^Metrics:' "$log" && break
  kill -0 "$up" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 1
done
grep -q '^Metrics:' "$log" || { echo "check-metrics: cluster did not come up" >&2; cat "$log" >&2; exit 1; }
# shellcheck disable=SC1091
source "$state/cluster/sluice.env"
node_port=$(sed -n 's/.*node daemons on 127.0.0.1 ports \[\([0-9]*\).*/\1/p' "$log")
(cd "$state" && sbatch --gres=gpu:1 --wrap 'sleep 20' >/dev/null)
for _ in $(seq 30); do
  curl -fsS "http://127.0.0.1:$node_port/metrics" | grep -q '^sluice_noded_job_gpus' && break
  sleep 1
done
fail=0
for url in "$SLUICE_METRICS_URL" "http://127.0.0.1:$node_port/metrics"; do
  for accept in 'text/plain; version=0.0.4' 'application/openmetrics-text; version=1.0.0'; do
    if curl -fsS -H "Accept: $accept" "$url" | promtool check metrics; then
      echo "ok   $url ($accept)"
    else
      echo "FAIL $url ($accept)"; fail=1
    fi
  done
done
curl -fsS "$SLUICE_METRICS_URL" | grep -E '^sluice_(jobs|nodes|node_gres)' || fail=1
curl -fsS "http://127.0.0.1:$node_port/metrics" | grep -E '^sluice_noded_job_gpus\{gpus="0"' || fail=1
exit $fail
