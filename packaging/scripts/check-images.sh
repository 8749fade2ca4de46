#!/usr/bin/env bash
# Checks the images build-images.sh made: unpacks each tag of the OCI archive with umoci and
# starts its entry point from the unpacked filesystem (chroot, as a container engine would):
# sluice-ctld checks a configuration, sluice-noded prints the node it detects (-C),
# sluice-dbd and sluice-restd their usage (sluice-restd as its image's user, refusing root as
# slurmrestd does), the login image runs sbatch --version, sluice-operator its usage. Run as root (chroot, unshare).
#   packaging/scripts/check-images.sh [packaging/target/images/sluice-images.tar]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
archive=${1:-$here/../target/images/sluice-images.tar}
[ -f "$archive" ] || { echo "check-images: no $archive (run build-images.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/oci"
tar -C "$work/oci" -xf "$archive"
fail() { echo "FAIL: $*" >&2; exit 1; }
entry() { # tag -> the image's entry point and user, from its config
  python3 - "$work/oci" "$1" <<'PY'
import json, sys, os
layout, tag = sys.argv[1], sys.argv[2]
index = json.load(open(os.path.join(layout, "index.json")))
m = next(d for d in index["manifests"] if d["annotations"]["org.opencontainers.image.ref.name"] == tag)
blob = lambda d: json.load(open(os.path.join(layout, "blobs", *d["digest"].split(":"))))
cfg = blob(blob(m)["config"])["config"]
print(cfg.get("User", ""), " ".join(cfg["Entrypoint"] + cfg.get("Cmd", [])))
PY
}
run() { # tag, command... : runs in the unpacked root filesystem of tag
  local tag=$1
  shift
  [ -d "$work/$tag" ] || umoci unpack --image "$work/oci:$tag" "$work/$tag" >/dev/null
  mkdir -p "$work/$tag/rootfs/proc"
  # A private mount namespace with /proc, as an engine gives a container (the runtime's
  # launcher finds its libraries through /proc/self/exe).
  unshare --mount --fork /bin/sh -c \
    'mount -t proc proc "$0/proc" && mount --bind /etc/hosts "$0/etc/hosts" && exec chroot "$0" "$@"' \
    "$work/$tag/rootfs" /usr/bin/env -i PATH=/opt/sluice/bin:/usr/bin:/bin "$@"
}
for tag in ctld noded dbd restd login operator; do
  read -r user cmd <<<"$(entry "$tag")"
  echo "     $tag: user $user, runs: $cmd"
done
[ "$(entry ctld)" = "999:999 /opt/sluice/bin/sluice-ctld -D" ] || fail "ctld entry point: $(entry ctld)"
umoci unpack --image "$work/oci:ctld" "$work/ctld" >/dev/null
mkdir -p "$work/ctld/rootfs/etc/slurm"
cat >"$work/ctld/rootfs/etc/slurm/slurm.conf" <<'CONF'
ClusterName=image
SlurmctldHost=ctld
NodeName=gpu[01-02] CPUs=8 RealMemory=16000 Gres=gpu:2
GresTypes=gpu
PartitionName=batch Nodes=gpu[01-02] Default=YES
CONF
run ctld /opt/sluice/bin/sluice-ctld --check-config /etc/slurm/slurm.conf || fail "sluice-ctld --check-config"
echo "ok   ctld: sluice-ctld --check-config from the image"
run noded /opt/sluice/bin/sluice-noded -C | grep -q '^NodeName=' || fail "sluice-noded -C"
echo "ok   noded: sluice-noded -C from the image"
run dbd /opt/sluice/bin/sluice-dbd --help | grep -qi usage || fail "sluice-dbd --help"
echo "ok   dbd: sluice-dbd --help from the image"
[ "$(entry restd)" = "999:999 /opt/sluice/bin/sluice-restd -f /etc/slurm/slurm.conf 0.0.0.0:6820" ] \
  || fail "restd entry point: $(entry restd)"
run restd /usr/bin/setpriv --reuid=999 --regid=999 --clear-groups /opt/sluice/bin/sluice-restd --help 2>&1 \
  | grep -q '^Usage: sluice-restd' || fail "sluice-restd --help"
[ -d "$work/restd" ] || umoci unpack --image "$work/oci:restd" "$work/restd" >/dev/null
mkdir -p "$work/restd/rootfs/etc/slurm"
cp "$work/ctld/rootfs/etc/slurm/slurm.conf" "$work/restd/rootfs/etc/slurm/slurm.conf"
refused=$(run restd /opt/sluice/bin/sluice-restd -f /etc/slurm/slurm.conf 127.0.0.1:0 2>&1 || true)
grep -q 'should not be run as the root user' <<<"$refused" || fail "sluice-restd as root: $refused"
echo "ok   restd: sluice-restd --help from the image as its user; as root it refuses to start"
run login /opt/sluice/bin/sbatch --version | grep -q . || fail "sbatch --version"
run login /bin/sh -c 'command -v squeue' | grep -q /opt/sluice/bin/squeue || fail "squeue on PATH"
echo "ok   login: sbatch --version, squeue on PATH"
run operator /opt/sluice-operator/bin/sluice-operator --help | grep -q 'Usage: sluice-operator' \
  || fail "sluice-operator --help"
echo "ok   operator: sluice-operator --help from the image"
