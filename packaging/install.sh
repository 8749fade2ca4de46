#!/usr/bin/env bash
# Installs Sluice from this build: packaging/install.sh [--root DIR] [--prefix /opt/sluice]
#   [--bindir /usr/local/bin] [--unitdir /etc/systemd/system] [--jlink] [--no-activate]
#
#   PREFIX/lib        the jars (packaging/target/lib: run ./mvnw -DskipTests package first)
#   PREFIX/bin        sluice-ctld, sluice-noded, sluice-dbd, sluice-agent, sluice-restd, sluice-aot-train, the commands
#   PREFIX/libexec    sluice-client, the commands' native front end (when cli/target has it)
#   PREFIX/runtime    with --jlink: a Java runtime made by jlink from $JAVA_HOME (no JDK needed on nodes)
#   BINDIR            sbatch, squeue, sinfo, scancel, scontrol, sacct, sacctmgr, sreport, srun, salloc,
#                     sprio, sshare, sdiag, sstat (links)
#   UNITDIR           sluice-ctld.service, sluice-noded.service, sluice-dbd.service, sluice-agent.service, sluice-restd.service
#   /etc/default      sluice-ctld, sluice-noded, sluice-dbd, sluice-agent, sluice-restd (environment files; kept if present)
#   /usr/lib/sysusers.d, /usr/lib/tmpfiles.d   the slurm user, /var/spool/sluice/{ctld,dbd,slurmd}
#   /etc/slurm        configuration (not written; see config-examples/)
#
# --root installs into another tree (a package build, an image, a test); activation (creating
# the user and the directories, systemctl daemon-reload) then runs against that tree, or is
# skipped with --no-activate.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
root=/
prefix=/opt/sluice
bindir=/usr/local/bin
unitdir=/etc/systemd/system
jlink=false
activate=true
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --bindir) bindir=$2; shift 2 ;;
    --unitdir) unitdir=$2; shift 2 ;;
    --jlink) jlink=true; shift ;;
    --no-activate) activate=false; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
lib="$here/target/lib"
if ! ls "$lib"/sluice-ctld-*.jar >/dev/null 2>&1; then
  echo "install.sh: no build in $lib; run ./mvnw -B -DskipTests package first" >&2
  exit 1
fi
root=$(cd "$root" && pwd)
dest="${root%/}$prefix"
install -d "$dest/bin" "$dest/lib" "$dest/share/doc" "$dest/share/examples" \
  "${root%/}$bindir" "${root%/}$unitdir" "${root%/}/etc/default" "${root%/}/etc/slurm" \
  "${root%/}/usr/lib/sysusers.d" "${root%/}/usr/lib/tmpfiles.d"
rm -f "$dest"/lib/*.jar
install -m 0644 "$lib"/*.jar "$dest/lib/"
sed "s|@PREFIX@|$prefix|g" "$here/dist/bin/_sluice-java" >"$dest/bin/_sluice-java"
chmod 0755 "$dest/bin/_sluice-java"
wrapper() { # name main-class [fixed args]
  local name=$1 main=$2
  shift 2
  printf '#!/bin/sh\nexec %s/bin/_sluice-java %s %s"$@"\n' "$prefix" "$main" "${*:+$* }" >"$dest/bin/$name"
  chmod 0755 "$dest/bin/$name"
}
wrapper sluice-ctld dev.sluice.ctld.server.CtldMain
wrapper sluice-noded dev.sluice.noded.server.NodedMain
wrapper sluice-dbd dev.sluice.dbd.server.DbdMain
wrapper sluice-agent dev.sluice.cli.agent.AgentMain
wrapper sluice-restd dev.sluice.restd.RestdMain
sed "s|@PREFIX@|$prefix|g" "$here/dist/bin/sluice-aot-train" >"$dest/bin/sluice-aot-train"
chmod 0755 "$dest/bin/sluice-aot-train"
# The native front end asks sluice-agent to run a command warm and falls back to
# PREFIX/bin/_sluice-java itself; without it (no C compiler at build time) the JVM runs it.
client="$repo/cli/target/sluice-client"
rm -rf "$dest/libexec"
if [ -x "$client" ]; then
  install -d "$dest/libexec"
  install -m 0755 "$client" "$dest/libexec/sluice-client"
fi
for cmd in sbatch squeue sinfo scancel scontrol sacct sacctmgr sreport srun salloc sprio sshare sdiag sstat; do
  if [ -x "$client" ]; then
    # A link, not a wrapper: the front end takes the command from its name and finds
    # ../bin/_sluice-java from its own path, so a call costs one small process, no shell.
    rm -f "$dest/bin/$cmd"
    ln -s ../libexec/sluice-client "$dest/bin/$cmd"
  else
    wrapper "$cmd" dev.sluice.cli.Main "$cmd"
  fi
  ln -sfn "$prefix/bin/$cmd" "${root%/}$bindir/$cmd"
done
for unit in sluice-ctld sluice-noded sluice-dbd sluice-agent sluice-restd; do
  sed "s|@PREFIX@|$prefix|g" "$here/dist/systemd/$unit.service" >"${root%/}$unitdir/$unit.service"
  chmod 0644 "${root%/}$unitdir/$unit.service"
  if [ ! -e "${root%/}/etc/default/$unit" ]; then
    install -m 0644 "$here/dist/default/$unit" "${root%/}/etc/default/$unit"
  fi
done
install -m 0644 "$here/dist/sysusers.d/sluice.conf" "${root%/}/usr/lib/sysusers.d/sluice.conf"
install -m 0644 "$here/dist/tmpfiles.d/sluice.conf" "${root%/}/usr/lib/tmpfiles.d/sluice.conf"
install -m 0644 "$repo/README.md" "$repo"/docs/*.md "$dest/share/doc/"
for ex in "$repo"/config-examples/*/; do
  case "$(basename "$ex")" in src|target) continue ;; esac
  cp -r "$ex" "$dest/share/examples/"
done
if $jlink; then
  jdk=${JAVA_HOME:-}
  if [ -z "$jdk" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then jdk=/usr/lib/jvm/temurin-25-jdk-amd64; fi
  [ -x "$jdk/bin/jlink" ] || { echo "install.sh: --jlink needs JAVA_HOME (a JDK 21 or newer)" >&2; exit 1; }
  rm -rf "$dest/runtime"
  # Every module a daemon or command uses: JDBC and XML (accounting, logback), the HTTP server
  # (metrics), Unix user ids (noded), JMX and Unsafe (netty, protobuf), TLS (MariaDB), and
  # SO_PEERCRED on Unix sockets (jdk.net: the controller's local command socket, the agent).
  "$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,java.naming,java.sql,java.xml,java.desktop,jdk.httpserver,jdk.security.auth,jdk.unsupported,jdk.crypto.ec,jdk.management,java.security.jgss,java.net.http,jdk.zipfs,jdk.net \
    --strip-debug --no-header-files --no-man-pages --output "$dest/runtime"
fi
if $activate; then
  if [ "$root" = / ]; then
    systemd-sysusers sluice.conf
    systemd-tmpfiles --create sluice.conf
    if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
  else
    systemd-sysusers --root="$root" sluice.conf
    systemd-tmpfiles --root="$root" --create sluice.conf
  fi
fi
echo "Sluice installed in ${root%/}$prefix (commands in $bindir, units in $unitdir)"
