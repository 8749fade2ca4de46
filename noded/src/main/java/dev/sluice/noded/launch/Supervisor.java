package dev.sluice.noded.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The per-job supervisor (the part of slurmstepd that outlives slurmd): a small POSIX shell
 * program, started in a session of its own, that runs the node's Prolog (as root), starts the
 * job, records the job's pid and its exit status in the job's spool directory, runs the Epilog,
 * and exits. Prolog and Epilog live here rather than in the daemon so that a daemon restarted
 * mid-job neither runs them twice nor forgets the Epilog. The node daemon is only its observer,
 * so stopping, crashing or upgrading the daemon never touches a running job; a restarted daemon
 * re-adopts the job from the files the supervisor left.
 *
 * <p>A shell and not a JVM per job: it costs a few hundred kilobytes and no start-up time. A
 * shell's {@code $?} cannot tell a job killed by signal N from one that exits with 128 + N, so
 * the supervisor reads the job's exact wait status from /proc while the job is a zombie that its
 * non-reaping parent keeps (see the program's comment).
 */
public final class Supervisor {
    /** Spool facts the supervisor writes. */
    public static final String SUPERVISOR_PID = "supervisor.pid";

    public static final String JOB_PID = "job.pid";
    public static final String EXIT = "exit";
    /** The job's wait(2) status, exactly (see SCRIPT); absent in spools of older supervisors. */
    public static final String WAIT_STATUS = "wait_status";
    /** Written when the job's Prolog exits non-zero (the job was not started) or its Epilog does. */
    public static final String PROLOG_FAILED = "prolog.failed";

    public static final String EPILOG_FAILED = "epilog.failed";
    private static final String FILE = "sluice-supervise.sh";

    // `env --default-signal`: a non-interactive shell starts background commands with SIGINT and
    // SIGQUIT ignored, and a job must receive them (scancel -s INT, srun's Ctrl-C). The
    // `environment` file holds the job's variables the JDK could not pass exactly
    // (JobEnvironmentFile); a subshell sets them and becomes the job, so its pid is the job's.
    //
    // The exact wait status: a shell's `$?` is 128+N both for "killed by signal N" and for
    // "exit 128+N", and Slurm tells them apart (FAILED JobLaunchFailure 0:9 against
    // NonZeroExitCode 137:0). So the job's parent is not this shell but `tail`, which never
    // reaps it and ends with this supervisor (--pid): the job stays a zombie until read, and its
    // wait status is field 52 (exit_code) of /proc/PID/stat. This shell polls that file, often
    // at first (short jobs), then twice a second, with builtins and sleep(1) only: any other
    // child it waited for could not be the job. `exit` keeps the shell's form for spools read by
    // older daemons; an unreadable stat (the job reaped by another) leaves neither file.
    private static final String SCRIPT = """
            #!/bin/sh
            # sluice job supervisor: written by sluice-noded, run as: sluice-supervise.sh JOBDIR COMMAND...
            dir=$1
            shift
            umask 077
            echo $$ > "$dir/supervisor.pid.tmp" && mv -f "$dir/supervisor.pid.tmp" "$dir/supervisor.pid"
            if [ -x "$dir/prolog" ] && [ ! -e "$dir/prolog.done" ]; then
              "$dir/prolog" </dev/null >/dev/null 2>&1
              prc=$?
              if [ $prc -ne 0 ]; then
                echo $prc > "$dir/prolog.failed.tmp" && mv -f "$dir/prolog.failed.tmp" "$dir/prolog.failed"
                exit 0
              fi
              : > "$dir/prolog.done"
            fi
            rm -f "$dir/job.pid.tmp"
            if [ -f "$dir/environment" ]; then
              ( ( . "$dir/environment"; exec env --default-signal "$@" ) & echo $! > "$dir/job.pid.tmp"; exec tail --pid=$$ -f /dev/null ) &
            else
              ( env --default-signal "$@" & echo $! > "$dir/job.pid.tmp"; exec tail --pid=$$ -f /dev/null ) &
            fi
            parent=$!
            job=
            while [ -z "$job" ]; do
              { read -r job < "$dir/job.pid.tmp"; } 2>/dev/null || sleep 0.01
            done
            mv -f "$dir/job.pid.tmp" "$dir/job.pid"
            set -f
            n=0
            status=
            while { read -r stat < "/proc/$job/stat"; } 2>/dev/null; do
              set -- ${stat##*) }
              if [ "$1" = Z ]; then
                status=${50}
                break
              fi
              n=$((n + 1))
              case $n in
                ?|1?) sleep 0.05 ;;
                2?|3?|4?) sleep 0.2 ;;
                *) sleep 0.5 ;;
              esac
            done
            kill $parent 2>/dev/null
            wait $parent 2>/dev/null
            if [ -n "$status" ]; then
              echo $status > "$dir/wait_status.tmp" && mv -f "$dir/wait_status.tmp" "$dir/wait_status"
              if [ $((status & 127)) -ne 0 ]; then rc=$((128 + (status & 127))); else rc=$((status >> 8)); fi
              echo $rc > "$dir/exit.tmp" && mv -f "$dir/exit.tmp" "$dir/exit"
            fi
            if [ -x "$dir/epilog" ]; then
              "$dir/epilog" </dev/null >/dev/null 2>&1
              erc=$?
              if [ $erc -ne 0 ]; then
                echo $erc > "$dir/epilog.failed.tmp" && mv -f "$dir/epilog.failed.tmp" "$dir/epilog.failed"
              fi
            fi
            """;

    private final Path program;

    private Supervisor(Path program) {
        this.program = program;
    }

    /** Writes the supervisor program into the spool (root-owned, not writable by jobs). */
    public static Supervisor install(Path spoolRoot) throws IOException {
        Path file = spoolRoot.resolve(FILE);
        Path tmp = spoolRoot.resolve(FILE + ".tmp");
        Files.writeString(tmp, SCRIPT);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return new Supervisor(file);
    }

    /** The command that supervises {@code job} with its facts in {@code jobDir}. */
    public List<String> command(Path jobDir, List<String> job) {
        List<String> command = new ArrayList<>(List.of("setsid", "/bin/sh", program.toString(), jobDir.toString()));
        command.addAll(job);
        return command;
    }

    /**
     * The supervisor of a job, if it still runs. A recorded pid counts only if that process is
     * still this job's supervisor (its command line names the job directory), so a recycled pid
     * is never mistaken for it.
     */
    public static Optional<ProcessHandle> alive(Path jobDir, Optional<String> recordedPid) {
        if (recordedPid.isEmpty()) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(recordedPid.get());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info()
                        .arguments()
                        .map(args -> List.of(args).contains(jobDir.toString()))
                        .orElse(false));
    }

    /**
     * The status Slurm reports for a wait(2) status: {@code exit << 8}, or the signal number
     * (without the core-dump bit) when the job died of a signal, whoever sent it.
     */
    public static int exactStatus(int waitStatus) {
        int signal = waitStatus & 0x7f;
        return signal != 0 ? signal : waitStatus & 0xff00;
    }

    /**
     * The wait(2) status Slurm reports for the shell's {@code $?}, for a job whose supervisor
     * recorded no exact status (one started by an older daemon): {@code exit << 8}, or the
     * signal number when the job died of a signal the daemon sent.
     */
    public static int waitStatus(int shellStatus, boolean signalledByDaemon) {
        if (signalledByDaemon && shellStatus > 128 && shellStatus < 128 + 65) {
            return shellStatus - 128;
        }
        return (shellStatus & 0xff) << 8;
    }
}
