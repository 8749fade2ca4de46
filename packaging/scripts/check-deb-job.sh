#!/usr/bin/env bash
# Runs jobs on daemons installed from the .deb (packaging/target/sluice_*_amd64.deb), started the
# way their systemd units start them, for hosts where systemd is not PID 1 (containers, CI):
#   1. dpkg --root into an empty temporary root (as check-deb.sh), a one-node slurm.conf and a
#      64-byte slurm.key (0600, owned by the root's slurm user) in the root's /etc/slurm;
#   2. in a private mount namespace (unshare -m) with the root's /opt, /var/spool, /var/cache
#      and /etc/slurm mounted over the host's: sluice-ctld and sluice-noded from the INSTALLED
#      units' ExecStart=, with the EnvironmentFile= (/etc/default) variables expanded as systemd
#      does ($VAR splits into words), User=/Group= (setpriv), Limit* (prlimit), a clean
#      environment and NOTIFY_SOCKET on a socket read here, which must get READY=1 from each
#      daemon's main pid (NotifyAccess=main);
#   3. sbatch --wrap as root through the installed front end (JVM path, SLUICE_NO_AGENT=1)
#      until COMPLETED, and its output file;
#   4. KillMode=process: SIGTERM to sluice-noded's main pid only while a job runs; the job's
#      process lives on, a new sluice-noded re-adopts it and the job completes.
#   3b. sbatch as nobody, who can read neither the key nor the controller's socket (in the
#      0700 StateSaveLocation): through sluice-agent, started from its unit the same way (READY=1
#      from its main pid) in a /run/sluice made as the package's tmpfiles.d says;
# Every process started in the namespace is killed and the root removed on exit. Needs root.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "${1:-}" = --inside ]; then
  # ---- Phase 2: inside the private mount namespace (re-executed below). ----
  root=$2 run=$3
  cd /
  mount --make-rprivate /
  mount --bind "$root/opt" /opt
  mount --bind "$root/var/spool" /var/spool
  mount --bind "$root/var/cache" /var/cache
  mount --bind "$root/etc/slurm" /etc/slurm
  # The users postinst made (slurm, with the root's ids, which own its spool) as the host would
  # have them after installing: the host's passwd and group with the root's entries in place.
  for db in passwd group; do
    { awk -F: 'NR==FNR{mine[$1]=1; next} !($1 in mine)' "$root/etc/$db" "/etc/$db"; cat "$root/etc/$db"; } >"$run/$db"
    chmod 0644 "$run/$db"
    mount --bind "$run/$db" "/etc/$db"
  done
  readlink /proc/self/ns/mnt >"$run/ns"
  unit_dir=$root/lib/systemd/system

  # The unit's [Service] value of KEY (last one wins, as in systemd).
  unit_value() { sed -n "s/^$2=//p" "$unit_dir/$1.service" | tail -1; }
  # EnvironmentFile=: KEY=VALUE lines, comments skipped, one pair of quotes stripped.
  env_pairs() {
    sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\)=\(.*\)$/\1=\2/p' "$1" \
      | sed -e 's/="\(.*\)"$/=\1/' -e "s/='\(.*\)'$/=\1/"
  }
  # Starts a unit's ExecStart= as systemd would (the parts a job can notice); prints the pid.
  start_unit() {
    local unit=$1 envfile exec user group limits=() cmd=() envs=() word name value
    envfile=$(unit_value "$unit" EnvironmentFile)
    envfile=${envfile#-}
    [ -z "$envfile" ] || mapfile -t envs < <(env_pairs "$root$envfile")
    exec=$(unit_value "$unit" ExecStart)
    [ -n "$exec" ] || fail "$unit.service has no ExecStart="
    for word in $exec; do
      case "$word" in
        \$\{*\}) name=${word#\$\{}; name=${name%\}}
          value=$(printf '%s\n' "${envs[@]}" | sed -n "s/^$name=//p" | tail -1); cmd+=("$value") ;;
        \$*) name=${word#\$}
          value=$(printf '%s\n' "${envs[@]}" | sed -n "s/^$name=//p" | tail -1)
          # shellcheck disable=SC2206
          cmd+=($value) ;;
        *) cmd+=("$word") ;;
      esac
    done
    for l in NOFILE:nofile MEMLOCK:memlock STACK:stack; do
      value=$(unit_value "$unit" "Limit${l%%:*}")
      [ -n "$value" ] || continue
      value=${value/infinity/unlimited}
      # Without CAP_SYS_RESOURCE (an unprivileged container) a hard limit cannot be raised:
      # the unit's value is capped to it, and said so.
      if ! prlimit "--${l#*:}=$value" -- true 2>/dev/null; then
        local hard
        hard=$(prlimit "--${l#*:}" -o HARD --noheadings | tr -d ' ')
        echo "$unit: Limit${l%%:*}=$value capped to the hard limit $hard (no CAP_SYS_RESOURCE)" >>"$run/capped.log"
        value=$hard
      fi
      limits+=("--${l#*:}=$value")
    done
    user=$(unit_value "$unit" User) group=$(unit_value "$unit" Group)
    # Limits first, then the user, as systemd does (a user cannot raise its hard limits).
    local priv=()
    if [ -n "$user" ]; then
        priv=(setpriv --reuid="$user" --regid="${group:-$user}" --clear-groups)
    fi
    echo "$unit: prlimit ${limits[*]} -- ${priv[*]} ${cmd[*]}" >>"$run/units.log"
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
      NOTIFY_SOCKET="$run/notify/sock" "${envs[@]}" \
      prlimit "${limits[@]}" -- "${priv[@]}" "${cmd[@]}" >>"$run/$unit.log" 2>&1 </dev/null &
    echo $!
  }
  # Waits (bounded) until the notify socket got READY=1 from pid $2.
  await_ready() {
    local unit=$1 pid=$2 i
    for ((i = 0; i < 240; i++)); do
      grep -qx "pid=$pid READY=1" "$run/notify.log" 2>/dev/null && return 0
      kill -0 "$pid" 2>/dev/null || { cat "$run/$unit.log" >&2; fail "$unit exited before READY=1"; }
      sleep 0.5
    done
    cat "$run/$unit.log" >&2
    fail "$unit sent no READY=1 from its main pid $pid in 120 s"
  }
  client() { env SLUICE_NO_AGENT=1 PATH=/opt/sluice/bin:/usr/bin:/bin "$@"; }
  job_state() { client scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
  await_state() {
    local job=$1 want=$2 limit=$3 i state=
    for ((i = 0; i < limit * 2; i++)); do
      state=$(job_state "$job")
      [ "$state" = "$want" ] && return 0
      case "$state" in FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
      sleep 0.5
    done
    client scontrol show job "$job" >&2 || true
    tail -20 "$run/sluice-noded.log" >&2
    fail "job $job is ${state:-unknown}, not $want"
  }

  # NOTIFY_SOCKET: a datagram socket that records each message with its sender's pid
  # (SO_PASSCRED), so that NotifyAccess=main can be checked. ctld runs as slurm: world-writable.
  mkdir -p "$run/notify" && chmod 0755 "$run/notify"
  python3 -u - "$run/notify/sock" >"$run/notify.log" 2>&1 <<'PY' &
import os, socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
while True:
    data, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(12))
    pid = next((struct.unpack("iII", d)[0] for l, t, d in anc
                if l == socket.SOL_SOCKET and t == socket.SCM_CREDENTIALS), -1)
    for line in data.decode(errors="replace").splitlines():
        print(f"pid={pid} {line}", flush=True)
PY
  for ((i = 0; i < 50; i++)); do [ -S "$run/notify/sock" ] && break; sleep 0.1; done
  [ -S "$run/notify/sock" ] || fail "notify socket"

  ctld=$(start_unit sluice-ctld)
  await_ready sluice-ctld "$ctld"
  noded=$(start_unit sluice-noded)
  await_ready sluice-noded "$noded"
  [ "$(stat -c %u /proc/"$ctld")" = "$(awk -F: '$1=="slurm"{print $3}' "$root/etc/passwd")" ] \
    || fail "sluice-ctld does not run as User=slurm"
  [ "$(stat -c %u /proc/"$noded")" = 0 ] || fail "sluice-noded does not run as root"
  nofile=$(unit_value sluice-noded LimitNOFILE)
  [ -s "$run/capped.log" ] && nofile=$(prlimit --nofile -o HARD --noheadings | tr -d ' ')
  grep -q "^Max open files *$nofile " "/proc/$noded/limits" || fail "sluice-noded LimitNOFILE"
  grep -q "^Max open files *$nofile " "/proc/$ctld/limits" || fail "sluice-ctld LimitNOFILE"
  echo "ok   sluice-ctld (as slurm) and sluice-noded (as root) from the installed units' ExecStart=: READY=1 from each main pid, open files $nofile"
  [ -s "$run/capped.log" ] && sed 's/^/note /' "$run/capped.log" | sort -u

  for ((i = 0; i < 60; i++)); do
    client sinfo -h -o %t 2>/dev/null | grep -qx idle && break
    sleep 0.5
  done
  client sinfo -h -o %t | grep -qx idle || { client sinfo >&2; fail "node not idle"; }

  work=$root/work
  mkdir -p "$work"
  out=$(cd "$work" && client sbatch --wrap 'id -un; hostname; echo done') || fail "sbatch: $out"
  job=${out##* }
  [[ "$out" =~ ^Submitted\ batch\ job\ [0-9]+$ ]] || fail "sbatch printed: $out"
  await_state "$job" COMPLETED 60
  [ "$(cat "$work/slurm-$job.out")" = "$(printf 'root\n%s\ndone' "$(hostname)")" ] \
    || { cat "$work/slurm-$job.out" >&2; fail "output of job $job"; }
  echo "ok   sbatch --wrap as root (installed front end, JVM path): job $job COMPLETED, slurm-$job.out: root, $(hostname), done"

  # Another user has neither the key nor a way into StateSaveLocation (0700 slurm), where the
  # controller's command socket is: sluice-agent.service signs for it. /run/sluice is made as
  # the package's tmpfiles.d says (at boot), here on a tmpfs over /run only this namespace sees.
  mount -t tmpfs -o mode=0755 tmpfs /run
  read -r mode owner group < <(awk '$2 == "/run/sluice" {print $3, $4, $5}' "$root/usr/lib/tmpfiles.d/sluice.conf")
  [ -n "$mode" ] || fail "tmpfiles.d/sluice.conf makes no /run/sluice"
  mkdir -m "$mode" /run/sluice && chown "$owner:$group" /run/sluice
  agent=$(start_unit sluice-agent)
  await_ready sluice-agent "$agent"
  [ -S /run/sluice/agent.sock ] || { cat "$run/sluice-agent.log" >&2; fail "sluice-agent was READY without /run/sluice/agent.sock"; }
  mkdir "$run/nobody" && chown nobody "$run/nobody"
  out=$(cd "$run/nobody" && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
    env -i PATH=/opt/sluice/bin:/usr/bin:/bin HOME=/ sbatch --wrap 'id -un; echo done' 2>&1) \
    || fail "sbatch as nobody: $out"
  job=${out##* }
  [[ "$out" =~ ^Submitted\ batch\ job\ [0-9]+$ ]] || fail "sbatch as nobody printed: $out"
  await_state "$job" COMPLETED 60
  client scontrol show job "$job" | grep -q ' UserId=nobody(' || fail "job $job is not nobody's"
  [ "$(stat -c %U "$run/nobody/slurm-$job.out")" = nobody ] || fail "slurm-$job.out is not nobody's"
  [ "$(cat "$run/nobody/slurm-$job.out")" = "$(printf 'nobody\ndone')" ] \
    || { cat "$run/nobody/slurm-$job.out" >&2; fail "output of job $job"; }
  kill -TERM "$agent"
  echo "ok   sbatch as nobody through sluice-agent (its unit's ExecStart=, READY=1 from its main pid, /run/sluice/agent.sock): job $job COMPLETED as nobody, slurm-$job.out (nobody's): nobody, done"

  # KillMode=process: a stop signals only the daemon's main pid; the job stays and is re-adopted.
  out=$(cd "$work" && client sbatch --wrap 'echo started; sleep 12; echo survived') || fail "sbatch: $out"
  job=${out##* }
  await_state "$job" RUNNING 30
  for ((i = 0; i < 20; i++)); do grep -q started "$work/slurm-$job.out" 2>/dev/null && break; sleep 0.5; done
  sleeper=$(pgrep -f -x 'sleep 12' | while read -r p; do
    [ "$(readlink /proc/"$p"/ns/mnt)" = "$(cat "$run/ns")" ] && echo "$p"; done | head -1)
  [ -n "$sleeper" ] || fail "no running job process for job $job"
  kill -TERM "$noded"
  for ((i = 0; i < 60; i++)); do kill -0 "$noded" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$noded" 2>/dev/null && fail "sluice-noded did not exit on SIGTERM"
  grep -q "pid=$noded STOPPING=1" "$run/notify.log" || fail "sluice-noded sent no STOPPING=1"
  kill -0 "$sleeper" 2>/dev/null || fail "job $job's process ended with sluice-noded"
  noded=$(start_unit sluice-noded)
  await_ready sluice-noded "$noded"
  await_state "$job" COMPLETED 60
  [ "$(cat "$work/slurm-$job.out")" = "$(printf 'started\nsurvived')" ] \
    || { cat "$work/slurm-$job.out" >&2; fail "output of job $job"; }
  echo "ok   SIGTERM to sluice-noded's main pid only (KillMode=process): job $job kept running, the restarted daemon re-adopted it, COMPLETED with its whole output"

  kill -TERM "$noded" "$ctld"
  for ((i = 0; i < 60; i++)); do
    kill -0 "$noded" 2>/dev/null || kill -0 "$ctld" 2>/dev/null || break
    sleep 0.5
  done
  kill -0 "$noded" 2>/dev/null && fail "sluice-noded did not stop on SIGTERM"
  kill -0 "$ctld" 2>/dev/null && fail "sluice-ctld did not stop on SIGTERM"
  grep -q "pid=$ctld STOPPING=1" "$run/notify.log" || fail "sluice-ctld sent no STOPPING=1"
  echo "ok   SIGTERM: both daemons sent STOPPING=1 and exited"
  exit 0
fi

# ---- Phase 1: install, configure, run phase 2 in a namespace, clean up. ----
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deb=$(ls "$here"/../target/sluice_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no packaging/target/sluice_*_amd64.deb; run ./mvnw -B -DskipTests -Pdeb package"
root=$(mktemp -d)
run=$(mktemp -d)
cleanup() {
  # Everything still running in the namespace (daemons, job supervisors, jobs) was started here.
  if [ -s "$run/ns" ]; then
    local ns p
    ns=$(cat "$run/ns")
    for p in /proc/[0-9]*; do
      [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    sleep 0.5
  fi
  [ "${KEEP_LOGS:-}" ] && cp -r "$run" "${KEEP_LOGS}" 2>/dev/null
  rm -rf "$root" "$run"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
chmod 0755 "$run"

mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-script-chrootless --force-depends --log=/dev/null -i "$deb" >"$run/dpkg.log" 2>&1 \
  || { cat "$run/dpkg.log" >&2; fail "dpkg --root -i"; }
[ -d "$root/var/spool/sluice/ctld" ] && [ -d "$root/var/spool/sluice/slurmd" ] || fail "postinst made no spool"
echo "ok   dpkg --root -i: installed"

# Two free ports, and no more CPUs than this machine has. Probed (and so racy), because here the
# ports must be in slurm.conf before anything starts: the installed units' command lines are
# what is under test, and they name no port, as a site's do not.
read -r ctld_port noded_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))')
cpus=$(nproc)
[ "$cpus" -ge 2 ] && cpus=2
mkdir -p "$root/etc/slurm"
cat >"$root/etc/slurm/slurm.conf" <<CONF
ClusterName=debjob
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$noded_port
SlurmUser=slurm
StateSaveLocation=/var/spool/sluice/ctld
SlurmdSpoolDir=/var/spool/sluice/slurmd
NodeName=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=500 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
head -c 64 /dev/urandom >"$root/etc/slurm/slurm.key"
chmod 0600 "$root/etc/slurm/slurm.key"
# Owned by the root's slurm user (the controller runs as it; root reads it anyway).
chown "$(awk -F: '$1=="slurm"{print $3":"$4}' "$root/etc/passwd")" "$root/etc/slurm/slurm.key"

unshare -m "$here/$(basename "${BASH_SOURCE[0]}")" --inside "$root" "$run" || {
  for f in units.log notify.log sluice-ctld.log sluice-noded.log; do
    [ -s "$run/$f" ] && { echo "--- $f" >&2; tail -30 "$run/$f" >&2; }
  done
  exit 1
}
