#!/usr/bin/python3
"""Differential scenarios: run Slurm command scripts against a cluster and print normalized
transcripts. The same program records real Slurm (the expected result, compat/expected) and
replays the scenarios against Sluice (packaging's TestDifferential), so both sides are run and
normalized by the same code. Standard library only (CI has no PyPI).

  difftest.py run [--timeout S] [--map FROM=TO ...] SCENARIO.scn ...   transcripts to stdout
  difftest.py run [--timeout S] [--map FROM=TO ...] --claim LIST   the same for the scenarios that
                                LIST names, each line taken by the first of several runners (one
                                per cluster) to claim it: one scenario, or a sequence's, separated
                                by tabs, run in that order
  difftest.py record SCENARIO.scn ...   against real Slurm: writes compat/expected/NAME.txt

A scenario is a text file, one step a line (docs/compatibility.md, "The differential suite"):
  # comment                     not in the transcript
  CMD ...                       a shell command (bash -c) in the scenario's own directory
  @file NAME ... @end           writes NAME (executable) with the lines between
  @slurm.conf ... @end          appends the lines to the cluster's slurm.conf ($SLURM_CONF) and
                                runs scontrol reconfigure; the file is restored (and the cluster
                                reconfigured again) when the scenario ends. First in a scenario.
  @slurm.conf restart ... @end  the same, but the controller is stopped and started again on its
                                state (settings slurmctld reads only when it starts, such as
                                AccountingStorageEnforce), then and when the scenario ends
                                ({CWD} in either stands for the scenario's own directory, for a
                                Prolog= written by @file)
  @as USER                      the following commands run as USER (root: back)
  @wait %N STATE[,STATE]        until the job's state is one of these (squeue -t all -o %T)
  @wait-reason %N REASON        until squeue shows the job pending for REASON
  @wait-acct %N [STATE,...]     until sacct has the job in a final state (or in one of STATEs:
                                accounting is shipped after the fact, so sacct of a job that
                                just changed waits for its record)
  @wait-idle                    until squeue lists no job
  @wait-file NAME               until the file exists and is not empty
  @sleep S                      let time pass (only where time is what is tested)
  @sequence NAME                scenarios naming the same sequence run on one cluster, in the order
                                of their names, as they were recorded: what accounting numbers
                                over the cluster's life (wckey ids) depends on the ones before,
                                and what the TRES table lists (a license TRES stays once
                                registered: those listing it run before compat 287-289)
  @same-day                     the scenario holds only on a cluster whose whole life is one day
                                (sreport's default period is yesterday: a cluster that ran jobs
                                before midnight has usage there); a runner that crossed midnight
                                reports such a scenario skipped if it differs, never passed
  @rest [OPTION...] METHOD PATH [FILE]   a REST request as the current user (token from scontrol
                                token) to $SLURMRESTD_URL, FILE its JSON body; prints the HTTP
                                status and the answer with sorted keys, run-bound values masked.
                                Options: --user-name=NAME  X-SLURM-USER-NAME says NAME (empty:
                                no such header); --headers  prints the answer's Content-Type
                                and WWW-Authenticate too; --token=KIND  instead of the user's
                                token: none (no token header), expired (one that ran out a
                                second ago), forged (the user's, its payload changed to name
                                root, the signature kept), alg-none (unsigned, "alg":"none",
                                naming the user), unknown-user (one scontrol minted for
                                sluicenosuchuser)
  @json CMD ...                 a command whose stdout is one JSON document (squeue --json):
                                printed as @rest prints an answer; of its "jobs", only the
                                scenario's own (earlier scenarios' jobs, within MinJobAge, are
                                listed too: 22.05's squeue --json applies no filter)
In commands, %N is the id of the N-th job the scenario submitted, in the order the commands
printed them. In transcripts every job id is J+K, K its distance from the scenario's first job.
"""
import base64
import fcntl
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# Job ids start here on both sides (FirstJobId in compat/conf/slurm.conf): above any pid
# (pid_max is at most 4194304), so no other number in an output is taken for a job id.
FIRST_JOB_ID = 5000000
FINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
         "BOOT_FAIL", "DEADLINE"}
# REST answers' fields whose values belong to the machine or the moment, not to the behaviour:
# masked as {V} on both sides when set (boot and daemon start times, kernel, ports), and
# always (the node's load and free memory, as the scontrol scenarios mask CPULoad and FreeMem).
REST_VOLATILE = {"boot_time", "slurmd_start_time", "last_busy", "operating_system", "port",
                 "reason_changed_at", "architecture"}
REST_MEASURED = {"cpu_load", "free_memory"}
# diag's (sdiag's) timings, cycle and thread counts, and its RPC lists, which count the harness's
# own polling (@wait) as well: they tell how fast and how often, not what was done.
REST_MEASURED |= {"gettimeofday_latency", "server_thread_count", "schedule_cycle_max",
                  "schedule_cycle_last", "schedule_cycle_total", "schedule_cycle_mean",
                  "schedule_cycle_mean_depth", "schedule_cycle_per_minute", "bf_cycle_counter",
                  "bf_cycle_mean", "bf_cycle_last", "bf_cycle_max", "bf_depth_mean",
                  "bf_depth_mean_try", "bf_queue_len", "bf_queue_len_mean", "bf_table_size",
                  "bf_table_size_mean", "bf_when_last_cycle", "rpcs_by_message_type", "rpcs_by_user",
                  # counted when slurmctld's timer last refreshed them (job_states_ts, seen to
                  # report 2 and then 0 pending for the same queue), and the last cycle's queue
                  "jobs_pending", "jobs_running", "schedule_queue_length",
                  # what the controller has yet to send sluice-dbd / slurmdbd at that moment
                  "dbd_agent_queue_size",
                  # a step's CPU time as the kernel measured it (dbv0.0.38 jobs: 11316 us of
                  # system time for `true` in one run, another number the next)
                  "microseconds",
                  # how long a job or step ran, in seconds: the machine's speed, as the {T} of
                  # sacct's Elapsed column is ("true" took 0 s on one side, 4 on the other)
                  "elapsed"}
# slurmdbd's statistics (dbv0.0.38 diag): the messages of its persistent connections, which
# Sluice's command protocol has no counterpart for (docs/accounting.md), are left out of the RPC
# list; the users' counts, which include them, and every time (microseconds taken, a rollup's
# cycles) are masked: what is compared is which requests were counted, how often, and the shape.
DBD_CONNECTION_RPCS = {"SLURM_PERSIST_INIT", "DBD_FINI"}
# slurmrestd names the client in some error texts ("job update from [localhost]:54410 failed"):
# its port is the client's ephemeral one.
CLIENT_PORT = re.compile(r"(\[[^\]]*\]):\d+")
# priority/basic gives each new job one less than the one before, from 4294901759 after the
# controller starts: the value tells how many jobs came before in the whole run, not behaviour.
BASIC_PRIORITY = range(4294901760 - 10000000, 4294901760)
# Seconds since the epoch anywhere in an answer: between 2001 and 2100.
EPOCH = range(1000000000, 4102444800)
SUBMITTED = [
    re.compile(r"Submitted batch job (\d+)"),
    re.compile(r"(?:Granted|Pending) job allocation (\d+)"),
    re.compile(r"srun: job (\d+) queued"),
]


class Scenario:
    def __init__(self, path, timeout, maps, user_home_base):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.timeout = timeout
        self.maps = maps
        self.ids = []
        self.user = "root"
        self.out = []
        self.diverged = False
        self.tokens = {}
        self.conf_before = None
        self.restarts = False
        self.work = tempfile.mkdtemp(prefix="scn-" + self.name[:20] + "-", dir=user_home_base)
        os.chmod(self.work, 0o777)

    # ------------------------------------------------------------------ running
    def sh(self, command, user=None, timeout=None):
        user = user or self.user
        argv = ["bash", "-c", command]
        if user != "root":
            argv = ["runuser", "-u", user, "--"] + argv
        env = dict(os.environ)
        # The REST daemon's address is the harness's (@rest), not the login shell's: a job's
        # environment would show it (scenario 010 lists SLURM* variables).
        env.pop("SLURMRESTD_URL", None)
        env["HOME"] = pwd.getpwnam(user).pw_dir
        env["USER"] = env["LOGNAME"] = user
        try:
            p = subprocess.run(argv, cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=timeout or self.timeout)
            return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            err = (e.stderr or b"").decode("utf-8", "replace")
            return None, out, err

    def expand(self, text):
        def ref(m):
            n = int(m.group(1))
            return str(self.ids[n - 1]) if 0 < n <= len(self.ids) else m.group(0)
        return re.sub(r"%(\d+)(?![\d])", ref, text)

    def capture(self, command, stdout, stderr):
        for text in (stdout, stderr):
            for pattern in SUBMITTED:
                for m in pattern.finditer(text):
                    self.note(int(m.group(1)))
        if re.match(r"\s*sbatch\b", command) and "--parsable" in command:
            for line in stdout.splitlines():
                m = re.match(r"^(\d+)(;\S+)?$", line.strip())
                if m:
                    self.note(int(m.group(1)))

    def note(self, job_id):
        if job_id not in self.ids:
            self.ids.append(job_id)

    def step_command(self, command):
        rc, out, err = self.sh(self.expand(command))
        self.capture(command, out, err)
        self.out.append(("$ " if self.user == "root" else "$[" + self.user + "] ") + command)
        self.out.extend(out.splitlines())
        self.out.extend("! " + line for line in err.splitlines())
        if rc is None:
            self.out.append("[timeout]")
        elif rc != 0:
            self.out.append("[exit %d]" % rc)

    def poll(self, what, check):
        # Once one wait has run out the scenario has gone its own way: later waits are short,
        # so that a scenario that differs costs seconds, not minutes.
        deadline = time.monotonic() + (2.0 if self.diverged else self.timeout)
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.2)
        self.diverged = True
        self.out.append("[timeout waiting for %s]" % what)

    def job_state(self, ref):
        # squeue, the most basic of the queries: a wait should not depend on what it waits for.
        rc, out, _ = self.sh("squeue -h -t all -o %T -j " + shlex.quote(self.expand(ref)), user="root", timeout=20)
        return out.split()

    def step_directive(self, words, body):
        d = words[0]
        if d == "@as":
            self.user = words[1]
        elif d == "@file":
            path = os.path.join(self.work, words[1])
            with open(path, "w") as f:
                f.write("".join(line + "\n" for line in body))
            os.chmod(path, 0o755)
            if self.user != "root":
                pw = pwd.getpwnam(self.user)
                os.chown(path, pw.pw_uid, pw.pw_gid)
        elif d == "@slurm.conf":
            conf = os.environ["SLURM_CONF"]
            if self.conf_before is None:
                with open(conf) as f:
                    self.conf_before = f.read()
            with open(conf, "a") as f:
                f.write("".join(line.replace("{CWD}", self.work) + "\n" for line in body))
            self.restarts = len(words) > 1 and words[1] == "restart"
            self.restart() if self.restarts else self.reconfigure()
        elif d == "@wait":
            wanted = set(words[2].split(","))
            self.poll(" ".join(words[1:]), lambda: any(s in wanted for s in self.job_state(words[1])))
        elif d == "@wait-reason":
            def pending_for():
                _, out, _ = self.sh("squeue -h -o %r -j " + self.expand(words[1]), user="root", timeout=20)
                return out.strip() == words[2]
            self.poll(" ".join(words[1:]), pending_for)
        elif d == "@wait-acct":
            def accounted():
                # Slurm's dbd may first hold a placeholder record (no partition, JobName
                # "allocation") for a moment after the job ended: wait for the whole one.
                _, out, _ = self.sh("sacct -n -X -P -o State,Partition -j " + self.expand(words[1]),
                                    user="root", timeout=20)
                rows = [line.split("|") for line in out.splitlines() if line.strip()]
                wanted = set(words[2].split(",")) if len(words) > 2 else FINAL
                return bool(rows) and all(len(r) == 2 and r[0].split()[0] in wanted and r[1] for r in rows)
            self.poll(" ".join(words[1:]), accounted)
        elif d == "@wait-idle":
            self.poll("an empty queue", lambda: self.sh("squeue -h", user="root", timeout=20)[1].strip() == "")
        elif d == "@wait-file":
            path = os.path.join(self.work, words[1])
            self.poll(words[1], lambda: os.path.exists(path) and os.path.getsize(path) > 0)
        elif d == "@rest":
            options = {}
            while len(words) > 1 and words[1].startswith("--"):
                name, _, value = words.pop(1)[2:].partition("=")
                options[name] = value
            self.step_rest(words[1], self.expand(words[2]), words[3] if len(words) > 3 else None, options)
        elif d == "@json":
            self.step_json(" ".join(words[1:]))
        elif d == "@sleep":
            time.sleep(float(words[1]))
        elif d in ("@sequence", "@same-day"):
            pass  # where the scenario runs (--claim), or how a differing run is judged
        else:
            raise SystemExit("%s: unknown directive %s" % (self.path, d))

    def token(self):
        if self.user not in self.tokens:
            _, out, _ = self.sh("scontrol token username=%s lifespan=3600" % self.user, user="root", timeout=20)
            self.tokens[self.user] = out.strip().split("=", 1)[-1]
        return self.tokens[self.user]

    def odd_token(self, kind):
        """A token that must not let the request through (@rest --token=KIND)."""
        def b64(raw):
            return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

        def unb64(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        if kind == "none":
            return None
        if kind == "expired":
            _, out, _ = self.sh("scontrol token username=%s lifespan=1" % self.user, user="root", timeout=20)
            # Past its exp second, whichever way the daemon rounds it.
            time.sleep(2.5)
            return out.strip().split("=", 1)[-1]
        if kind == "unknown-user":
            _, out, _ = self.sh("scontrol token username=sluicenosuchuser lifespan=3600", user="root", timeout=20)
            return out.strip().split("=", 1)[-1]
        if kind == "forged":
            header, payload, signature = self.token().split(".")
            claims = json.loads(unb64(payload))
            claims["sun"] = "root"
            return ".".join([header, b64(json.dumps(claims, separators=(",", ":")).encode()), signature])
        if kind == "alg-none":
            now = int(time.time())
            claims = {"exp": now + 3600, "iat": now, "sun": self.user}
            return ".".join([b64(b'{"alg":"none","typ":"JWT"}'),
                             b64(json.dumps(claims, separators=(",", ":")).encode()), ""])
        raise SystemExit("%s: unknown @rest --token=%s" % (self.path, kind))

    def step_rest(self, method, path, body_file, options=None):
        options = options or {}
        shown = ["--%s=%s" % (k, v) if v or k != "headers" else "--" + k for k, v in options.items()]
        self.out.append(("@rest " if self.user == "root" else "@rest[" + self.user + "] ")
                        + " ".join(filter(None, shown + [method, path, body_file])))
        data = None
        if body_file:
            with open(os.path.join(self.work, body_file), "rb") as f:
                data = self.expand(f.read().decode()).encode()
        url = os.environ.get("SLURMRESTD_URL", "").rstrip("/")
        if not url:
            raise SystemExit("difftest: @rest needs SLURMRESTD_URL (the REST daemon to ask)")
        headers = {"X-SLURM-USER-NAME": options.get("user-name", self.user),
                   "X-SLURM-USER-TOKEN": self.odd_token(options["token"]) if "token" in options else self.token(),
                   "Content-Type": "application/json"}
        request = urllib.request.Request(url + path, data=data, method=method,
                                         headers={k: v for k, v in headers.items() if v})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                status, text, got = r.status, r.read().decode("utf-8", "replace"), r.headers
        except urllib.error.HTTPError as e:
            status, text, got = e.code, e.read().decode("utf-8", "replace"), e.headers
        except OSError as e:
            self.out.append("[rest failed: %s]" % e)
            return
        self.out.append("HTTP %d" % status)
        if "headers" in options:
            for name in ("Content-Type", "WWW-Authenticate"):
                if got.get(name) is not None:
                    self.out.append("%s: %s" % (name, got.get(name)))
        try:
            answer = json.loads(text)
        except ValueError:
            self.out.extend(text.splitlines())
            return
        for line in json.dumps(self.mask(answer), indent=1, sort_keys=True).splitlines():
            self.out.append(line)
            m = re.match(r'\s*"job_id": (\d+)', line)
            if m and path.endswith("/job/submit"):
                self.note(int(m.group(1)))

    def step_json(self, command):
        rc, out, err = self.sh(self.expand(command))
        self.out.append(("@json " if self.user == "root" else "@json[" + self.user + "] ") + command)
        try:
            document = json.loads(out)
        except ValueError:
            self.out.extend(out.splitlines())
            document = None
        if isinstance(document, dict) and isinstance(document.get("jobs"), list):
            own = set(self.ids)
            document["jobs"] = [j for j in document["jobs"] if isinstance(j, dict)
                                and (j.get("job_id") in own or j.get("array_job_id") in own)]
        if document is not None:
            self.out.extend(json.dumps(self.mask(document), indent=1, sort_keys=True).splitlines())
        self.out.extend("! " + line for line in err.splitlines())
        if rc is None:
            self.out.append("[timeout]")
        elif rc != 0:
            self.out.append("[exit %d]" % rc)

    def mask(self, value, key=None):
        if key in REST_MEASURED or key in REST_VOLATILE and value not in (None, "", 0):
            return "{V}"
        if key == "statistics" and isinstance(value, dict) and "RPCs" in value:
            return self.mask_dbd_statistics(value)
        if key == "priority" and value in BASIC_PRIORITY:
            return "{BASIC_PRIORITY}"
        if isinstance(value, dict):
            return {k: self.mask(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.mask(v) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and value in EPOCH:
            return "{EPOCH}"
        if isinstance(value, str):
            return CLIENT_PORT.sub(r"\1:{PORT}", value)
        return value

    def mask_dbd_statistics(self, stats):
        def timed(entry, also=()):
            return {k: ({t: "{V}" for t in v} if k == "time" and isinstance(v, dict)
                        else "{V}" if k in also else self.mask(v, k))
                    for k, v in entry.items()}
        out = dict(stats)
        out["RPCs"] = [timed(r) for r in stats.get("RPCs", []) if r.get("rpc") not in DBD_CONNECTION_RPCS]
        out["users"] = [timed(u, ("count",)) for u in stats.get("users", [])]
        out["rollups"] = [{k: (v if k == "type" else "{V}") for k, v in r.items()}
                          for r in stats.get("rollups", [])]
        return {k: self.mask(v, k) if k not in ("RPCs", "users", "rollups") else v for k, v in out.items()}

    def run(self):
        with open(self.path) as f:
            lines = f.read().splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("@"):
                words = shlex.split(line)
                body = []
                if words[0] in ("@file", "@slurm.conf"):
                    while i < len(lines) and lines[i] != "@end":
                        body.append(lines[i])
                        i += 1
                    i += 1
                self.step_directive(words, body)
            else:
                self.step_command(line)
        self.cleanup()
        return self.normalize("\n".join(self.out) + "\n")

    def cleanup(self):
        # Leave the cluster as found: the next scenario starts with an empty queue.
        for job_id in self.ids:
            self.sh("scancel %d" % job_id, user="root", timeout=20)
        self.sh("scancel -u root; scancel -u sluiceuser1; scancel -u sluiceuser2", user="root", timeout=20)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.sh("squeue -h", user="root", timeout=20)[1].strip():
            time.sleep(0.2)
        if self.conf_before is not None:
            with open(os.environ["SLURM_CONF"], "w") as f:
                f.write(self.conf_before)
            self.restart() if self.restarts else self.reconfigure()

    def restart(self):
        # Not in the transcript. Both clusters keep their pid files in run/ beside etc/: real
        # Slurm's slurmctld is started again here on its state; Sluice's local cluster
        # supervises its controller (run/ctld.pid) and starts it again itself.
        conf = os.environ["SLURM_CONF"]
        run = os.path.join(os.path.dirname(os.path.dirname(conf)), "run")
        real = os.path.join(run, "slurmctld.pid")
        pidfile = real if os.path.exists(real) else os.path.join(run, "ctld.pid")
        with open(pidfile) as f:
            pid = int(f.read().split()[0])
        os.kill(pid, 15)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        if pidfile == real:
            subprocess.run(["slurmctld", "-f", conf], check=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            # A node an active reservation holds is idle too (resv, maint: compat 275).
            states = set(self.sh("sinfo -h -o %t", user="root", timeout=20)[1].split())
            if states and states <= {"idle", "resv", "maint"}:
                break
            time.sleep(0.5)

    def reconfigure(self):
        # Not in the transcript: the scenario's commands are what is compared. Both sides
        # reread the file at once; the nodes register again, so wait until they are idle.
        self.sh("scontrol reconfigure", user="root", timeout=60)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            states = set(self.sh("sinfo -h -o %t", user="root", timeout=20)[1].split())
            if states == {"idle"}:
                break
            time.sleep(0.2)

    # ------------------------------------------------------------------ normalizing
    def normalize(self, text):
        for src, dst in self.maps:
            # A port in a right-justified column (two spaces or more before it) keeps the
            # column's width: a 5-digit port of Sluice's stands where Slurm printed 6817.
            if src.isdigit():
                def same_width(m, dst=dst, src=src):
                    return " " * max(2, len(m.group(1)) + len(src) - len(dst)) + dst
                text = re.sub(r"(  +)" + re.escape(src) + r"(?![\w])", same_width, text)
            text = re.sub(r"(?<![\w.])" + re.escape(src) + r"(?![\w])", dst, text)
        text = text.replace(os.path.realpath(self.work), "{CWD}").replace(self.work, "{CWD}")
        base = self.ids[0] if self.ids else None
        if base is None:
            seen = [int(x) for x in re.findall(r"(?<!\d)(\d{7,8})(?!\d)", text)
                    if FIRST_JOB_ID <= int(x) < FIRST_JOB_ID * 2]
            base = min(seen) if seen else None
        if base is not None:
            def job(m):
                n = int(m.group(1))
                if FIRST_JOB_ID <= n < FIRST_JOB_ID * 2:
                    k = n - base
                    return "J" if k == 0 else "J%+d" % k
                return m.group(0)
            text = re.sub(r"(?<!\d)(\d{7,8})(?!\d)", job, text)
        # Times and dates: what a clock says differs between any two runs.
        text = re.sub(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+ "
                      r"\d\d:\d\d:\d\d \d{4}\b", "{DATE}", text)
        text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "{TS}", text)
        text = re.sub(r"(?<![\w:])(\d+-)?\d{1,2}:\d\d:\d\d(?![\w:])", "{T}", text)
        text = re.sub(r"(?<![\w:=])\d{1,3}:\d\d(?![\w:])", "{T}", text)
        text = re.sub(r"\b\d{4}-\d\d-\d\d\b", "{DATE}", text)
        host = socket.gethostname()
        text = re.sub(r"(?<![\w.-])" + re.escape(host) + r"(?![\w-])", "{HOST}", text)
        return text


def parse_maps(args):
    maps = []
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "--map":
            src, dst = args[i + 1].split("=", 1)
            maps.append((src, dst))
            i += 2
        else:
            rest.append(args[i])
            i += 1
    return maps, rest


def claimed(listing):
    """The scenarios of LISTING, each line's yielded to the one runner that claims it first: the
    next line's number is kept in LISTING.next, read and advanced under an exclusive lock."""
    with open(listing) as f:
        lines = [line.strip() for line in f if line.strip()]
    while True:
        with open(listing + ".next", "a+") as counter:
            fcntl.flock(counter, fcntl.LOCK_EX)
            counter.seek(0)
            taken = int(counter.read().strip() or "0")
            if taken >= len(lines):
                return
            counter.seek(0)
            counter.truncate()
            counter.write(str(taken + 1))
        yield from lines[taken].split("\t")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("run", "record"):
        print(__doc__, file=sys.stderr)
        return 2
    mode = argv[1]
    args = argv[2:]
    timeout = 60.0 if mode == "record" else 15.0
    if args[:1] == ["--timeout"]:
        timeout = float(args[1])
        args = args[2:]
    maps, scenarios = parse_maps(args)
    if scenarios[:1] == ["--claim"] and mode == "run":
        scenarios = claimed(scenarios[1])
    if mode == "record":
        if not os.path.exists(os.environ.get("SLURM_CONF", "/nonexistent")):
            print("difftest: set SLURM_CONF to the real Slurm's slurm.conf (compat/record.sh)", file=sys.stderr)
            return 2
        maps = maps + [(os.environ.get("REAL_SLURM_DIR", "/tmp/real-slurm"), "{BASE}")]
    # One scenario at a time on a cluster, whoever runs them.
    cluster = re.sub(r"\W", "_", os.environ.get("SLURM_CONF", ""))
    lock = open(os.path.join(tempfile.gettempdir(), "difftest%s.lock" % cluster), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    base_dir = tempfile.mkdtemp(prefix="difftest-")
    os.chmod(base_dir, 0o755)
    failed = 0
    for path in scenarios:
        s = Scenario(path, timeout, maps, base_dir)
        started = time.monotonic()
        text = s.run()
        # Where the suite's time goes (TestDifferential prints the slowest).
        print("difftest: %s took %.1f s" % (s.name, time.monotonic() - started), file=sys.stderr, flush=True)
        if mode == "record":
            if "[timeout waiting" in text:
                print("difftest: %s: a wait timed out against real Slurm; not recorded" % s.name, file=sys.stderr)
                failed += 1
                continue
            target = os.path.join(HERE, "expected", s.name + ".txt")
            with open(target, "w") as f:
                f.write(text)
            print("recorded %s (%d lines)" % (s.name, text.count("\n")))
        else:
            sys.stdout.write("=== %s\n" % s.name)
            sys.stdout.write(text)
            sys.stdout.flush()
    shutil.rmtree(base_dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
