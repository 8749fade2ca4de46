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
 * The job supervisor (the part of slurmstepd that outlives slurmd): the program that runs the
 * node's Prolog (as root), starts the job, records the job's pid and its exit status in the
 * job's spool directory, runs the Epilog, and says it is done. Prolog and Epilog live there
 * rather than in the daemon so that a daemon restarted mid-job neither runs them twice nor
 * forgets the Epilog. The node daemon is only its observer, so stopping, crashing or upgrading
 * the daemon never touches a running job; a restarted daemon re-adopts the job from the files
 * the supervisor left ({@link KnownSupervisor}).
 *
 * <p>Where {@code /usr/bin/perl -t} runs ({@code perl-base} is Essential on Debian) the
 * supervisor is {@code sluice-supervise.pl} (a resource of this package, which says what it
 * does), run once per daemon as the {@link SupervisorHost}: the parent of every job, which waits
 * for each with waitpid(2) and records its exact wait status, and which does in the job's own
 * process, before its one exec, what a chain of programs did before (setsid, setpriv, the
 * environment loader, the shell that entered the working directory and opened the output
 * files): a trivial job costs one fork there and its own exec, with no process of its own
 * beside the job. The same program also supervises one job alone. The host itself is, where it
 * runs, {@code sluice-supervise-host}, the same host in C ({@link HostProgram}): a fork of it and
 * what its child does before the exec cost less CPU than Perl's. A shell's {@code $?} cannot
 * tell a job killed by signal N from one that exits with 128 + N, and a shell cannot fork a
 * process and leave it unreaped (dash, after any builtin, reaps whatever child has ended once a
 * SIGCHLD has come; bash reaps in its SIGCHLD handler), so no shell can be the job's parent.
 * Where Perl cannot run, the supervisor is a POSIX shell program started per job that records
 * the shell's {@code $?} alone, and the job is started through the chain of programs ({@link
 * BatchCommand}; {@link #waitStatus}).
 */
public final class Supervisor {
    private static final Logger log = LoggerFactory.getLogger(Supervisor.class);

    /** Facts the supervisor writes in the job's spool ({@link dev.sluice.noded.spool.JobFacts}). */
    public static final String SUPERVISOR_PID = "supervisor.pid";

    public static final String JOB_PID = "job.pid";
    public static final String EXIT = "exit";
    /** The job's wait(2) status, exactly; absent where the shell's $? was all there was. */
    public static final String WAIT_STATUS = "wait_status";
    /** Written when the job's Prolog exits non-zero (the job was not started) or its Epilog does. */
    public static final String PROLOG_FAILED = "prolog.failed";

    /** Written (empty) when the job's Prolog succeeded, before the job is started. */
    public static final String PROLOG_DONE = "prolog.done";

    public static final String EPILOG_FAILED = "epilog.failed";

    /** Written (empty) by the supervisor host once a job's life is over: facts, Epilog and all. */
    static final String DONE = "supervisor.done";

    /** The token of the supervisor host that is a job's parent, which ends its command line. */
    static final String HOST = "supervisor.host";

    private static final String FILE = "sluice-supervise.sh";
    private static final String PERL_FILE = "sluice-supervise.pl";
    private static final String HOST_FILE = "sluice-supervise-host";

    static final String PERL = "/usr/bin/perl";

    // The supervisor without Perl. It runs as root with the daemon's environment alone
    // (UserEnvironment.ROOT): the job's variables are loaded only after setpriv, by the last
    // program of the job's command (UserEnvironment#loading), which also resets SIGINT and
    // SIGQUIT, ignored for background commands of a non-interactive shell.
    private static final String SCRIPT = """
            #!/bin/sh
            # sluice job supervisor: written by sluice-noded, run as: sluice-supervise.sh JOBDIR COMMAND...
            dir=$1
            shift
            umask 077
            # Each fact a line appended to the job's one file of facts (JobFacts).
            echo "supervisor.pid=$$" >> "$dir/facts"
            if [ -x "$dir/prolog" ] && ! grep -q '^prolog.done=' "$dir/facts"; then
              "$dir/prolog" </dev/null >/dev/null 2>&1
              prc=$?
              if [ $prc -ne 0 ]; then
                echo "prolog.failed=$prc" >> "$dir/facts"
                exit 0
              fi
              echo "prolog.done=" >> "$dir/facts"
            fi
            # The job's process publishes its own pid, still as root, once setsid has made it the
            # leader of its own session and process group: a signal to that group always reaches
            # it. An end asked for before (the daemon writes end_state, then looks for job.pid)
            # ends it there, by SIGTERM, before anything of the job runs.
            setsid /bin/sh -c 'echo "job.pid=$$" >> "$1/facts"
            if grep -q "^end_state=" "$1/facts"; then kill -s TERM $$; exit 143; fi
            shift
            exec "$@"' sluice-job "$dir" "$@" &
            job=$!
            wait $job
            echo "exit=$?" >> "$dir/facts"
            if [ -x "$dir/epilog" ]; then
              "$dir/epilog" </dev/null >/dev/null 2>&1
              erc=$?
              if [ $erc -ne 0 ]; then
                echo "epilog.failed=$erc" >> "$dir/facts"
              fi
            fi
            """;

    private final Path program;
    private final boolean exact;
    private final Optional<Path> cHost;

    private Supervisor(Path program, boolean exact, Optional<Path> cHost) {
        this.program = program;
        this.exact = exact;
        this.cHost = cHost;
    }

    /** How jobs started under this supervisor get their environment: with Perl where it runs. */
    UserEnvironment userEnvironment() {
        return new UserEnvironment(exact);
    }

    /**
     * Writes the supervisor program and its job runner into the spool (root-owned, not writable
     * by jobs). The exact wait status needs {@code /usr/bin/perl}, tried once here. The host is
     * the C program where this jar holds one that runs here, unless {@code
     * SLUICE_SUPERVISOR_HOST=perl} asks for Perl's.
     */
    public static Supervisor install(Path spoolRoot) throws IOException {
        boolean exact = perlRuns();
        if (!exact) {
            log.warn(
                    "{} -t does not run here: jobs' exit statuses are recorded as a shell's $? (a job killed by"
                            + " signal N is told from one that exits 128+N only when this daemon sent the signal)",
                    PERL);
        }
        return install(spoolRoot, exact, HostProgram.of(System.getenv("SLUICE_SUPERVISOR_HOST")));
    }

    /** {@link #install(Path)} with the choice made: with the runner, or the shell's $? alone. */
    static Supervisor install(Path spoolRoot, boolean exact) throws IOException {
        return install(spoolRoot, exact, HostProgram.C);
    }

    /** {@link #install(Path)} with both choices made: {@code host} counts only where {@code exact}. */
    static Supervisor install(Path spoolRoot, boolean exact, HostProgram host) throws IOException {
        if (!exact) {
            return new Supervisor(write(spoolRoot.resolve(FILE), SCRIPT, "rwxr-xr-x"), false, Optional.empty());
        }
        String text;
        try (var in = Supervisor.class.getResourceAsStream(PERL_FILE)) {
            if (in == null) {
                throw new IOException("the supervisor program " + PERL_FILE + " is missing from sluice-noded");
            }
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        // Read by perl as this daemon's user alone: owner-only, as every file of the daemon's.
        Path perl = write(spoolRoot.resolve(PERL_FILE), text, "rw-------");
        return new Supervisor(perl, true, host == HostProgram.C ? cHost(spoolRoot) : Optional.empty());
    }

    /**
     * Which program is the supervisor host: the C one (src/main/c, built into this jar where the
     * build found a C compiler), where it is here and runs, else the Perl one; both do the same
     * (TestSupervisorHost runs its tests on each), the C one at less CPU per job.
     */
    enum HostProgram {
        C,
        PERL;

        /** {@code SLUICE_SUPERVISOR_HOST}'s value: "perl" for Perl's, anything else for the C one. */
        static HostProgram of(String setting) {
            return "perl".equalsIgnoreCase(setting == null ? "" : setting.strip()) ? PERL : C;
        }
    }

    /** The C host written into the spool, where this jar holds one and it runs here. */
    private static Optional<Path> cHost(Path spoolRoot) throws IOException {
        byte[] binary;
        try (var in = Supervisor.class.getResourceAsStream(HOST_FILE)) {
            if (in == null) {
                return Optional.empty();
            }
            binary = in.readAllBytes();
        }
        Path file = write(spoolRoot.resolve(HOST_FILE), binary, "rwx------");
        if (!runs(List.of(file.toString(), KnownSupervisor.SERVE, "0:0"))) {
            log.warn("{} does not run here: the supervisor host is {}", file, PERL_FILE);
            return Optional.empty();
        }
        return Optional.of(file);
    }

    /** Whether the supervisor host is the C program ({@link HostProgram}). */
    boolean hostInC() {
        return cHost.isPresent();
    }

    /** Whether jobs started under this supervisor get their exact wait status (Perl runs here). */
    boolean exact() {
        return exact;
    }

    private static Path write(Path file, String text, String mode) throws IOException {
        return write(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), mode);
    }

    /**
     * Written then renamed: a supervisor still running keeps the program it started with. Under
     * the {@link ForkLock}: the C host is executed at once, and a process started meanwhile would
     * hold it open for writing (ETXTBSY).
     */
    private static Path write(Path file, byte[] bytes, String mode) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        ForkLock.write(tmp, bytes);
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
        return runs(List.of(PERL, "-t", "-e", "exit 0"));
    }

    /** Whether {@code command} exits 0, with /dev/null for input, within 10 s. */
    private static boolean runs(List<String> command) {
        try {
            Process p = ForkLock.start(new ProcessBuilder(command)
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
        return command(jobDir, List.of(), job);
    }

    /**
     * The command that supervises {@code job} with its facts in {@code jobDir}: this program,
     * then {@link #arguments}.
     */
    List<String> command(Path jobDir, List<String> options, List<String> job) {
        List<String> command = new ArrayList<>(program());
        command.addAll(arguments(jobDir, options, job));
        return command;
    }

    /** How this supervisor program is run: what precedes its arguments. */
    private List<String> program() {
        return exact ? List.of(PERL, "-t", program.toString()) : List.of("setsid", "/bin/sh", program.toString());
    }

    /**
     * What this program is given to supervise {@code job} with its facts in {@code jobDir} (a
     * {@link SupervisorHost}'s request, or the arguments of a supervisor started alone); with
     * Perl, the job's process first does what {@code options} ask ({@code --user}, {@code --io},
     * {@code --cgroup}: see sluice-supervise.pl; {@link BatchCommand} makes them), in a session of
     * its own. Without Perl, {@code options} must be empty; the job's process also leads a
     * session of its own (the shell supervisor's setsid) before it publishes its pid and executes
     * {@code job}.
     */
    List<String> arguments(Path jobDir, List<String> options, List<String> job) {
        List<String> out = new ArrayList<>();
        out.add(jobDir.toString());
        if (exact) {
            out.add(SETSID + ":" + EXIT_GROUP);
            out.addAll(options);
            out.add("--");
        } else if (!options.isEmpty()) {
            throw new IllegalArgumentException("the shell supervisor takes no options: " + options);
        }
        out.addAll(job);
        return out;
    }

    /**
     * A supervisor to be started alone, not through a host: with {@code arguments} (one of
     * {@link #arguments}'s), after a joiner has put it into {@code joinFirst} (the shell
     * supervisor's cgroups; the Perl supervisor joins its own, by option). It runs as root with
     * root's fixed environment only, in "/", tied to none of the daemon's pipes, since it
     * outlives the daemon.
     */
    ProcessBuilder alone(List<String> arguments, List<Path> joinFirst) {
        List<String> command = new ArrayList<>(program());
        command.addAll(arguments);
        ProcessBuilder pb = new ProcessBuilder(dev.sluice.noded.confine.Confinement.joining(joinFirst, command))
                .directory(new java.io.File("/"));
        pb.environment().clear();
        pb.environment().putAll(UserEnvironment.ROOT);
        return pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    }

    /** The Perl supervisor's option that puts it (and so the job) into {@code dirs} first; none for none. */
    static List<String> cgroupOptions(List<Path> dirs) {
        if (dirs.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(List.of("--cgroup", Integer.toString(dirs.size())));
        dirs.forEach(d -> out.add(d.toString()));
        return out;
    }

    /** setsid(2)'s system call number on this machine's architecture; 0: the supervisor loads POSIX. */
    static final int SETSID = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 112;
        case "aarch64", "riscv64" -> 157;
        case "ppc64le", "ppc64", "s390x", "x86", "i386" -> 66;
        default -> 0;
    };

    /**
     * exit_group(2)'s number where it is known here, else 0 (the supervisor ends with Perl's
     * exit). A forked supervisor that ends by Perl's exit first tears its interpreter down,
     * which writes to, and so copies, the pages it shares with the host: about 2 ms of CPU per
     * job on a 2-core VM (2026-12-07), against nothing for the system call.
     */
    static final int EXIT_GROUP = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 231;
        case "aarch64", "riscv64" -> 94;
        default -> 0;
    };

    /**
     * The host that is the parent of every job this daemon starts, where Perl runs (the shell
     * supervisor is started alone, per job): the C program where it runs, else the Perl one.
     */
    Optional<SupervisorHost> host() {
        if (!exact) {
            return Optional.empty();
        }
        List<String> command =
                new ArrayList<>(cHost.map(p -> List.of(p.toString())).orElseGet(this::program));
        command.addAll(List.of(KnownSupervisor.SERVE, SETSID + ":" + EXIT_GROUP));
        return Optional.of(new SupervisorHost(command));
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
