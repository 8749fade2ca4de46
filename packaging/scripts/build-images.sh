#!/usr/bin/env bash
# Builds Sluice's container images without a container engine: packaging/scripts/build-images.sh [OUT]
#   OUT (default packaging/target/images) gets sluice-images.tar, an OCI archive with six tags:
#   ctld, noded, dbd, restd (the daemons, each as its entry point), login (the user commands) and
#   operator (sluice-operator, from operator/target: build with ./mvnw -DskipTests package).
# The root filesystem is install.sh --root with a jlink runtime, plus the host's glibc and the
# few programs the daemons exec (sh, env, mv, setsid, setpriv, perl) with their libraries; the image
# is assembled with umoci (Debian: apt-get install umoci). Run as root (umoci unpacks with owners).
# Load with: podman load -i sluice-images.tar   (or skopeo copy oci-archive:...:ctld ...)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/../target/images}
command -v umoci >/dev/null || { echo "build-images: umoci not found (apt-get install umoci)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
mkdir -p "$rootfs"
"$here/../install.sh" --root "$rootfs" --jlink --no-activate --bindir /usr/bin >/dev/null
# What the daemons and their jobs' supervisor exec, and what the jlink runtime links against.
# perl: the job runner, the job's parent, which records its exact wait status (it loads no module).
programs=(/bin/sh /bin/bash /usr/bin/env /bin/mv /bin/cat /bin/sleep /bin/hostname /usr/bin/id
  /usr/bin/setsid /usr/bin/setpriv /usr/bin/perl)
for p in "${programs[@]}"; do
  cp --parents -L "$p" "$rootfs/"
done
libs=$( { for f in "${programs[@]}" "$rootfs"/opt/sluice/runtime/bin/* $(find "$rootfs/opt/sluice/runtime/lib" -name '*.so'); do
  ldd "$f" 2>/dev/null | awk '/=>/ && $3 ~ /^\// {print $3} /^\t\/lib/ {print $1}'; done; } | sort -u)
for l in $libs; do
  case "$l" in "$rootfs"/*) continue ;; esac # the runtime's own libraries are already in place
  cp --parents -L "$l" "$rootfs/"
done
# JNA (sd_notify) loads libc by name and unpacks its native stub into java.io.tmpdir.
mkdir -p "$rootfs/tmp" "$rootfs/etc" "$rootfs/var/spool/sluice/ctld" "$rootfs/var/spool/sluice/dbd" \
  "$rootfs/var/spool/sluice/slurmd" "$rootfs/run"
chmod 1777 "$rootfs/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nslurm:x:999:999:Slurm workload manager:/var/spool/sluice:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\nslurm:x:999:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
# The engine provides /etc/hosts and /etc/resolv.conf; lookups go to them.
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$rootfs/etc/nsswitch.conf"
touch "$rootfs/etc/hosts" "$rootfs/etc/resolv.conf"
chown -R 999:999 "$rootfs/var/spool/sluice/ctld" "$rootfs/var/spool/sluice/dbd"
# The operator: its jar and its libraries (fabric8, Java Operator SDK) beside the daemons', run by
# the same jlink runtime (java.net.http is in it: the fabric8 client's JDK HTTP client).
operator=$here/../../operator/target
[ -d "$operator/lib" ] || { echo "build-images: $operator/lib missing: run ./mvnw -DskipTests package" >&2; exit 1; }
mkdir -p "$rootfs/opt/sluice-operator/lib" "$rootfs/opt/sluice-operator/bin" "$rootfs/var/run/sluice-operator"
cp "$operator"/lib/*.jar "$operator"/sluice-operator-*.jar "$rootfs/opt/sluice-operator/lib/"
cat >"$rootfs/opt/sluice-operator/bin/sluice-operator" <<'SH'
#!/bin/sh
exec /opt/sluice/runtime/bin/java $SLUICE_JAVA_OPTS -cp '/opt/sluice-operator/lib/*' dev.sluice.operator.OperatorMain "$@"
SH
chmod 755 "$rootfs/opt/sluice-operator/bin/sluice-operator"
chown 65534:65534 "$rootfs/var/run/sluice-operator"

layout="$work/oci"
umoci init --layout "$layout"
umoci new --image "$layout:base"
umoci unpack --image "$layout:base" "$work/bundle" >/dev/null
cp -a "$rootfs/." "$work/bundle/rootfs/"
umoci repack --image "$layout:base" "$work/bundle"
common=(--config.env "PATH=/opt/sluice/bin:/usr/bin:/bin" --config.env "SLURM_CONF=/etc/slurm/slurm.conf"
  --config.workingdir / --author "Sluice" --clear=config.cmd)
umoci config --image "$layout:base" --tag ctld "${common[@]}" --config.user 999:999 \
  --config.entrypoint /opt/sluice/bin/sluice-ctld --config.cmd -D \
  --config.exposedports 6817/tcp --config.exposedports 6917/tcp --config.volume /var/spool/sluice/ctld
umoci config --image "$layout:base" --tag noded "${common[@]}" --config.user 0:0 \
  --config.entrypoint /opt/sluice/bin/sluice-noded --config.cmd -D --config.exposedports 6818/tcp \
  --config.volume /var/spool/sluice/slurmd
umoci config --image "$layout:base" --tag dbd "${common[@]}" --config.user 999:999 \
  --config.entrypoint /opt/sluice/bin/sluice-dbd --config.cmd -D \
  --config.cmd --data-dir --config.cmd /var/spool/sluice/dbd --config.exposedports 6819/tcp \
  --config.volume /var/spool/sluice/dbd
# sluice-restd as SlurmUser, whose group reads the JWT key (it refuses to run as root, as slurmrestd).
umoci config --image "$layout:base" --tag restd "${common[@]}" --config.user 999:999 \
  --config.entrypoint /opt/sluice/bin/sluice-restd --config.cmd -f --config.cmd /etc/slurm/slurm.conf \
  --config.cmd 0.0.0.0:6820 --config.exposedports 6820/tcp
umoci config --image "$layout:base" --tag login "${common[@]}" --config.user 65534:65534 \
  --config.entrypoint /bin/bash
umoci config --image "$layout:base" --tag operator "${common[@]}" --config.user 65534:65534 \
  --config.entrypoint /opt/sluice-operator/bin/sluice-operator --config.exposedports 8080/tcp
umoci rm --image "$layout:base"
umoci gc --layout "$layout"
tar -C "$layout" -cf "$out/sluice-images.tar" .
echo "built $out/sluice-images.tar: $(umoci ls --layout "$layout" | tr '\n' ' ')($(du -h "$out/sluice-images.tar" | cut -f1))"
