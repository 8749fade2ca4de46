#!/usr/bin/env bash
# Installs this build into a temporary root (packaging/install.sh --root, with a jlink runtime
# unless --no-jlink) and checks it: the tree, `systemd-analyze verify` of the units against
# that root, and sluice-ctld started from the installed runtime and jars with a NOTIFY_SOCKET,
# which must receive READY=1 (as systemd would for Type=notify). Needs python3 for the socket.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jlink=--jlink
[ "${1:-}" = --no-jlink ] && jlink=
root=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$root"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$here/../install.sh" --root "$root" $jlink >/dev/null 2>&1 || fail "install.sh"
prefix="$root/opt/sluice"
for f in bin/sluice-ctld bin/sluice-noded bin/sluice-dbd bin/sluice-agent bin/sluice-restd bin/sluice-aot-train bin/sbatch lib; do
  [ -e "$prefix/$f" ] || fail "missing $prefix/$f"
done
for f in etc/systemd/system/sluice-ctld.service etc/systemd/system/sluice-noded.service etc/systemd/system/sluice-agent.service \
  etc/systemd/system/sluice-dbd.service etc/systemd/system/sluice-restd.service etc/default/sluice-ctld usr/local/bin/squeue \
  usr/lib/sysusers.d/sluice.conf var/spool/sluice/ctld var/spool/sluice/slurmd; do
  [ -e "$root/$f" ] || [ -L "$root/$f" ] || fail "missing /$f"
done
[ "$(readlink "$root/usr/local/bin/squeue")" = /opt/sluice/bin/squeue ] || fail "squeue link"
grep -q '^slurm:' "$root/etc/passwd" || fail "no slurm user in the tree"
echo "ok   tree"
if command -v systemd-analyze >/dev/null; then
  # verify resolves the units' dependencies (targets) from the root: lend it the host's.
  mkdir -p "$root/usr/lib/systemd"
  cp -r /lib/systemd/system "$root/usr/lib/systemd/"
  for u in sluice-ctld sluice-noded sluice-dbd sluice-agent sluice-restd; do
    out=$(systemd-analyze verify --root="$root" "/etc/systemd/system/$u.service" 2>&1) || fail "$u: $out"
    [ -z "$out" ] || fail "$u: $out"
  done
  echo "ok   systemd-analyze verify"
else
  echo "skip systemd-analyze (not installed)"
fi
java="$prefix/runtime/bin/java"
[ -n "$jlink" ] || java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
[ -x "$java" ] || fail "no java at $java"
"$java" -cp "$prefix/lib/*" dev.sluice.cli.Main sbatch --version | grep -q . || fail "sbatch --version"
echo "ok   sbatch --version from the installed tree"
# A one-node configuration, and a controller under a fake service manager.
conf="$root/etc/slurm"
# No port named: the controller starts on port 0 (--port 0 below) and the kernel picks.
cat >"$conf/slurm.conf" <<CONF
ClusterName=installcheck
SlurmctldHost=localhost(127.0.0.1)
StateSaveLocation=$root/var/spool/sluice/ctld
NodeName=n1 CPUs=2 RealMemory=1000
PartitionName=debug Nodes=n1 Default=YES
CONF
# The cluster key the controller refuses to start without (docs/security.md).
head -c 64 /dev/urandom >"$conf/slurm.key"
chmod 0600 "$conf/slurm.key"
python3 - "$root/notify" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); s.settimeout(120)
with open(sys.argv[1] + ".got", "w") as f:
    f.write(s.recv(4096).decode())
PY
pids+=($!)
for _ in $(seq 50); do [ -S "$root/notify" ] && break; sleep 0.1; done
NOTIFY_SOCKET="$root/notify" "$java" --enable-native-access=ALL-UNNAMED -cp "$prefix/lib/*" \
  dev.sluice.ctld.server.CtldMain -D -f "$conf/slurm.conf" --bind 127.0.0.1 --port 0 >"$root/ctld.log" 2>&1 &
ctld=$!
pids+=("$ctld")
for _ in $(seq 120); do
  [ -s "$root/notify.got" ] && break
  kill -0 "$ctld" 2>/dev/null || break
  sleep 1
done
grep -q '^READY=1' "$root/notify.got" 2>/dev/null || { cat "$root/ctld.log" >&2; fail "no READY=1 from sluice-ctld"; }
echo "ok   sluice-ctld sent: $(tr '\n' ' ' <"$root/notify.got")"
echo "size of $prefix: $(du -sh "$prefix" | cut -f1)${jlink:+ (with the jlink runtime)}"
