package dev.sluice.noded.launch;

import dev.sluice.noded.spool.ForkLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-job supervisor (the part of slurmstepd that outlives slurmd): a small POSIX shell
 * program, started in a session of its own, that runs the node's Prolog (as root), starts the
 * job, records the job's pid and its exit status in the job's spool directory, runs the Epilog,
 * and exits. Prolog and Epilog live here rather than in the daemon so that a daemon restarted
 * mid-job neither runs them twice nor forgets the Epilog. The node daemon is only its observer,
 * so stopping, crashing or upgrading the daemon never touches a running job; a restarted daemon
 * re-adopts the job from the files the supervisor left.
 *
 * <p>A shell and a small Perl program, not a JVM per job: no start-up time, a few megabytes
 * (mostly shared text). A shell's {@code $?} cannot tell a job killed by signal N from one that
 * exits with 128 + N, so the job's parent is a twenty-line Perl program (the {@code RUNNER}:
 * {@code perl-base} is Essential on Debian) that waits for it with waitpid(2) and records its
 * exact wait status. Where {@code /usr/bin/perl} cannot run, the supervisor records the
 * shell's {@code $?} alone, as supervisors before the exact status did (see {@link #waitStatus}).
 */
public final class Supervisor {
    private static final Logger log = LoggerFactory.getLogger(Supervisor.class);

    /** Spool facts the supervisor writes. */
    public static final String SUPERVISOR_PID = "supervisor.pid";

    public static final String JOB_PID = "job.pid";
    public static final String EXIT = "exit";
    /** The job's wait(2) status, exactly (see RUNNER); absent where the shell's $? was all there was. */
    public static final String WAIT_STATUS = "wait_status";
    /** Written when the job's Prolog exits non-zero (the job was not started) or its Epilog does. */
    public static final String PROLOG_FAILED = "prolog.failed";

    public static final String EPILOG_FAILED = "epilog.failed";
    private static final String FILE = "sluice-supervise.sh";
    /** Beside {@link #FILE}: the supervisor finds it through its own path ({@code ${0%/*}}). */
    private static final String RUNNER_FILE = "sluice-run-job.pl";

    static final String PERL = "/usr/bin/perl";

    // The job's parent and the only process that ever waits for it. Why Perl: the exact status
    // needs a parent that calls waitpid(2) itself. The earlier way (the job's parent a subshell
    // that then became `tail --pid=... -f /dev/null`, which never reaps, and the supervisor
    // reading the zombie's /proc/PID/stat) lost the status of jobs that ended at once under load:
    // a /bin/true job reported killed by signal 9, about one run in 700 with eight supervisors
    // in parallel beside two busy loops. The subshell forked the job, then ran
    // `echo $! > job.pid.tmp` before `exec tail`; dash, after any builtin, reaps whatever child
    // has ended once a SIGCHLD has come (waitforjob(NULL): wait4(-1, WNOHANG)), and bash reaps
    // in its SIGCHLD handler at any moment. A shell cannot fork a process and leave it unreaped,
    // so no shell can be the job's parent. Here fork, exec and waitpid(pid) are Perl's own, no
    // module is loaded (the node image carries /usr/bin/perl alone), and `$?` is the 16-bit
    // status.
    //
    // `-t` (set by the supervisor's command line): taint mode makes Perl ignore PERL5OPT,
    // PERL5LIB and PERLLIB. This root process is started with the daemon's environment alone
    // (UserEnvironment.ROOT: the job's variables are loaded after setpriv), so this is a second
    // guard, not the first. Its warnings (the job's command and the job directory come from
    // outside) are expected and dropped. A failed exec exits 127 in the child, as a shell's
    // "not found".
    private static final String RUNNER = """
            # sluice job runner: written by sluice-noded, run by the job's supervisor as:
            #   perl -t sluice-run-job.pl JOBDIR COMMAND...
            # Starts COMMAND (the job) as its child, records its pid (job.pid), waits for it and
            # records its wait(2) status (wait_status) and the shell's form of it (exit).
            $SIG{__WARN__} = sub {};
            my $dir = shift @ARGV;
            my $pid = fork;
            exit 1 unless defined $pid;
            if ($pid == 0) {
                exec { $ARGV[0] } @ARGV;
                exit 127;
            }
            fact('job.pid', $pid);
            exit 1 unless waitpid($pid, 0) == $pid;
            my $status = $?;
            fact('wait_status', $status);
            fact('exit', ($status & 127) ? 128 + ($status & 127) : $status >> 8);
            exit 0;

            sub fact {
                my ($name, $value) = @_;
                open(my $f, '>', "$dir/$name.tmp") or return;
                print $f "$value\\n";
                close($f) and rename("$dir/$name.tmp", "$dir/$name");
            }
            """;

    // The supervisor, the runner and everything up to setpriv run as root with the daemon's
    // environment alone (UserEnvironment.ROOT): the job's variables are loaded only after setpriv,
    // by the last program of the job's command (UserEnvironment#loading), which also resets
    // SIGINT and SIGQUIT, ignored for background commands of a non-interactive shell.
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
            %s
            if [ -x "$dir/epilog" ]; then
              "$dir/epilog" </dev/null >/dev/null 2>&1
              erc=$?
              if [ $erc -ne 0 ]; then
                echo $erc > "$dir/epilog.failed.tmp" && mv -f "$dir/epilog.failed.tmp" "$dir/epilog.failed"
              fi
            fi
            """;

    /** The job, started and recorded by RUNNER: job.pid, wait_status and exit. */
    private static final String EXACT_START = """
            %1$s -t "${0%%/*}/%2$s" "$dir" "$@\"""";

    /** Without Perl: the job as this shell's child, and only the shell's $? (exit). */
    private static final String SHELL_START = """
            "$@" &
            job=$!
            echo $job > "$dir/job.pid.tmp" && mv -f "$dir/job.pid.tmp" "$dir/job.pid"
            wait $job
            echo $? > "$dir/exit.tmp" && mv -f "$dir/exit.tmp" "$dir/exit\"""";

    private final Path program;
    private final boolean exact;

    private Supervisor(Path program, boolean exact) {
        this.program = program;
        this.exact = exact;
    }

    /** How jobs started under this supervisor get their environment: with Perl where it runs. */
    UserEnvironment userEnvironment() {
        return new UserEnvironment(exact);
    }

    /**
     * Writes the supervisor program and its job runner into the spool (root-owned, not writable
     * by jobs). The exact wait status needs {@code /usr/bin/perl}, tried once here.
     */
    public static Supervisor install(Path spoolRoot) throws IOException {
        boolean exact = perlRuns();
        if (!exact) {
            log.warn(
                    "{} -t does not run here: jobs' exit statuses are recorded as a shell's $? (a job killed by"
                            + " signal N is told from one that exits 128+N only when this daemon sent the signal)",
                    PERL);
        }
        return install(spoolRoot, exact);
    }

    /** {@link #install(Path)} with the choice made: with the runner, or the shell's $? alone. */
    static Supervisor install(Path spoolRoot, boolean exact) throws IOException {
        write(spoolRoot.resolve(RUNNER_FILE), RUNNER, "rw-r--r--");
        String start = exact ? EXACT_START.formatted(PERL, RUNNER_FILE) : SHELL_START;
        return new Supervisor(write(spoolRoot.resolve(FILE), SCRIPT.formatted(start), "rwxr-xr-x"), exact);
    }

    /** Written then renamed: a supervisor still running keeps the program it started with. */
    private static Path write(Path file, String text, String mode) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(mode));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** Whether {@code /usr/bin/perl -t} runs here: asked once per process (batch and step launchers both need it). */
    static boolean perlRuns() {
        return PerlCheck.RUNS;
    }

    private static final class PerlCheck {
        static final boolean RUNS = askPerl();
    }

    private static boolean askPerl() {
        try {
            Process p = ForkLock.start(new ProcessBuilder(PERL, "-t", "-e", "exit 0")
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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
     * recorded no exact status (one started by an older daemon, or on a node without Perl):
     * {@code exit << 8}, or the signal number when the job died of a signal the daemon sent.
     */
    public static int waitStatus(int shellStatus, boolean signalledByDaemon) {
        if (signalledByDaemon && shellStatus > 128 && shellStatus < 128 + 65) {
            return shellStatus - 128;
        }
        return (shellStatus & 0xff) << 8;
    }
}
