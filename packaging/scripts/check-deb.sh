#!/usr/bin/env bash
# Checks the .deb built by `./mvnw -B -DskipTests -Pdeb package` (packaging/target/sluice_*.deb):
#   1. dpkg-deb -I / -c: control files, conffiles, the layout, executable modes, /usr/bin links;
#   2. dpkg --root into a temporary root holding only a stand-in slurm-client package, which it
#      must replace (scripts chrootless, so postinst creates the slurm user and the spool
#      directories in that root);
#   3. in a private mount namespace (unshare -m) with that root's /opt and /var/cache mounted
#      over the host's: sluice-aot-train writes the AOT cache, squeue runs with it,
#      sluice-ctld --check-config and sluice-noded -C run from the installed runtime;
#   4. dpkg --root -r removes it and keeps /etc/default (conffiles).
# Needs root (dpkg --root, unshare -m).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deb=$(ls "$here"/../target/sluice_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: no packaging/target/sluice_*_amd64.deb; run ./mvnw -B -DskipTests -Pdeb package" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

info=$(dpkg-deb -I "$deb")
for f in control conffiles postinst prerm postrm; do
  grep -qE "^ +[0-9]+ bytes, +[0-9]+ lines +(\* +)?$f( |$)" <<<"$info" || fail "control member $f"
done
[ "$(dpkg-deb -f "$deb" Package)" = sluice ] || fail "Package"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles | sort | tr '\n' ' ')" = \
  "/etc/default/sluice-agent /etc/default/sluice-ctld /etc/default/sluice-dbd /etc/default/sluice-noded /etc/default/sluice-restd " ] \
  || fail "conffiles"
contents=$(dpkg-deb -c "$deb")
has() { grep -qE "$1" <<<"$contents" || fail "not in the package: $1"; }
for b in sluice-ctld sluice-noded sluice-dbd sluice-agent sluice-restd sluice-aot-train _sluice-java; do
  has "^-rwxr-xr-x .* \./opt/sluice/bin/$b$"
done
for c in sbatch squeue sinfo scancel scontrol sacct sacctmgr sreport srun salloc sprio sshare sdiag sstat; do
  has "^lrwxrwxrwx .* \./opt/sluice/bin/$c -> \.\./libexec/sluice-client$"
  has "^lrwxrwxrwx .* \./usr/bin/$c -> /opt/sluice/bin/$c$"
done
for u in sluice-ctld sluice-noded sluice-dbd sluice-agent sluice-restd; do
  has "^-rw-r--r-- .* \./lib/systemd/system/$u\.service$"
  has "^-rw-r--r-- .* \./etc/default/$u$"
done
has '^-rwxr-xr-x .* \./opt/sluice/runtime/bin/java$'
has '\./opt/sluice/lib/sluice-ctld-.*\.jar$'
has '\./usr/lib/sysusers\.d/sluice\.conf$'
grep -qE '\./var/' <<<"$contents" && fail "/var belongs to postinst (systemd-tmpfiles)"
echo "ok   dpkg-deb -I/-c: control, conffiles, layout, modes, /usr/bin links"
# Debian's Slurm packages: the same commands in /usr/bin, the same ports. Sluice replaces them
# and stands in for slurm-client where something wants only its commands (unversioned).
for field in Conflicts Replaces; do
  [ "$(dpkg-deb -f "$deb" "$field")" = "slurm-client, slurmctld, slurmd, slurmdbd" ] || fail "$field"
done
[ "$(dpkg-deb -f "$deb" Provides)" = slurm-client ] || fail "Provides"
echo "ok   Conflicts/Replaces: slurm-client, slurmctld, slurmd, slurmdbd; Provides: slurm-client"

mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
# A stand-in for Debian's slurm-client, owning /usr/bin/squeue: installing sluice must take the
# file over and remove the package (Conflicts + Replaces), not stop on the clash.
stub=$(mktemp -d)
mkdir -p "$stub/DEBIAN" "$stub/usr/bin"
printf 'Package: slurm-client\nVersion: 22.05.8-4\nArchitecture: amd64\nMaintainer: check-deb <root@localhost>\nDescription: stand-in\n' \
  >"$stub/DEBIAN/control"
printf '#!/bin/sh\necho real slurm\n' >"$stub/usr/bin/squeue" && chmod 0755 "$stub/usr/bin/squeue"
dpkg-deb --root-owner-group -b "$stub" "$stub.deb" >/dev/null
dpkg --root="$root" --force-script-chrootless --log=/dev/null -i "$stub.deb" >/dev/null 2>&1 || fail "stand-in slurm-client"
rm -rf "$stub" "$stub.deb"
dpkg --root="$root" --force-script-chrootless --force-depends --log=/dev/null -i "$deb" >"$root.log" 2>&1 \
  || { cat "$root.log" >&2; rm -f "$root.log"; fail "dpkg --root -i"; }
rm -f "$root.log"
dpkg --root="$root" -s sluice | grep -q '^Status: install ok installed' || fail "dpkg status"
dpkg --root="$root" -s slurm-client 2>/dev/null | grep -q '^Status: install ok installed' \
  && fail "slurm-client is still installed beside sluice"
[ "$(readlink "$root/usr/bin/squeue")" = /opt/sluice/bin/squeue ] || fail "squeue link"
grep -q '^slurm:' "$root/etc/passwd" || fail "postinst made no slurm user"
[ -d "$root/var/spool/sluice/ctld" ] || fail "postinst made no /var/spool/sluice/ctld"
echo "ok   dpkg --root -i: installed over a slurm-client (removed, /usr/bin/squeue taken over), slurm user and spool directories made by postinst"

mkdir -p "$root/etc/slurm"
cat >"$root/etc/slurm/slurm.conf" <<CONF
ClusterName=debcheck
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=1
StateSaveLocation=/tmp
GresTypes=gpu
NodeName=n1 CPUs=2 RealMemory=1000
PartitionName=debug Nodes=n1 Default=YES
CONF
# Inside: the package's /opt and /var/cache where it expects them, the host's everything else.
out=$(unshare -m bash -euc '
  mount --bind "$1/opt" /opt
  mount --bind "$1/var/cache" /var/cache
  /opt/sluice/bin/sluice-aot-train
  test -s /var/cache/sluice/commands.aot
  echo "squeue: $(SLURM_CONF=$1/etc/slurm/slurm.conf SLUICE_NO_AGENT=1 /opt/sluice/bin/squeue 2>&1 || true)"
  # Found on PATH, the front end has only its own name: it finds ../bin/_sluice-java from /proc/self/exe.
  echo "squeue-on-path: $(PATH=/opt/sluice/bin:$PATH SLURM_CONF=$1/etc/slurm/slurm.conf SLUICE_NO_AGENT=1 squeue 2>&1 || true)"
  /opt/sluice/bin/sluice-ctld --check-config "$1/etc/slurm/slurm.conf" 2>&1
  /opt/sluice/bin/sluice-noded -C 2>&1 | head -1
' _ "$root" 2>&1) || { echo "$out" >&2; fail "running the installed tree"; }
grep -q 'sluice-aot-train: wrote /var/cache/sluice/commands.aot' <<<"$out" || { echo "$out" >&2; fail "AOT cache"; }
grep -q '^squeue: slurm_load_jobs error: Unable to contact slurm controller' <<<"$out" || { echo "$out" >&2; fail "squeue from /usr/bin's target"; }
grep -q '^squeue-on-path: slurm_load_jobs error: Unable to contact slurm controller' <<<"$out" || { echo "$out" >&2; fail "squeue found on PATH"; }
grep -q '^NodeName=' <<<"$out" || { echo "$out" >&2; fail "sluice-noded -C"; }
grep -q '^Configuration .* is valid\.$' <<<"$out" || { echo "$out" >&2; fail "sluice-ctld --check-config"; }
echo "ok   installed tree runs: AOT cache trained, squeue, sluice-ctld --check-config, sluice-noded -C"

echo 'SLUICE_CTLD_OPTIONS=--metrics-port 9817' >>"$root/etc/default/sluice-ctld"
dpkg --root="$root" --force-script-chrootless --log=/dev/null -r sluice >/dev/null 2>&1 || fail "dpkg -r"
[ ! -e "$root/opt/sluice/bin/sluice-ctld" ] || fail "removal left the binaries"
grep -q 'metrics-port 9817' "$root/etc/default/sluice-ctld" || fail "removal lost an edited conffile"
echo "ok   dpkg --root -r: files gone, edited conffile kept"
