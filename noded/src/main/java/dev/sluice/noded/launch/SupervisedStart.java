package dev.sluice.noded.launch;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.spool.JobSpool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What starting one batch job writes and runs: its script in the spool (the user's, when the
 * daemon is root), its Prolog and Epilog wrappers, its cgroups, and the one supervisor command
 * ({@link Supervisor}) that runs the script as the user. The command runs with root's fixed
 * environment only: the user's variables reach the job as records in the Perl or C supervisor's
 * request, set only in the job's process once it is the user, or, for the shell supervisor,
 * through an environment file its loader reads as the user; never a program root runs.
 */
record SupervisedStart(
        String nodeName,
        JobSpool spool,
        Supervisor supervisor,
        boolean hosted,
        int daemonUid,
        CpuBinding.Policy cpuBinding,
        List<String> prolog,
        List<String> epilog,
        JobConfinement confinement) {
    private static final Logger log = LoggerFactory.getLogger(SupervisedStart.class);

    /**
     * What a prepared job's supervisor is given: its {@code arguments} (a {@link SupervisorHost}'s
     * request, or a supervisor's started alone: {@link Supervisor#alone}), and the cgroups a
     * joiner puts the shell supervisor into first (none for the Perl supervisor, which joins its
     * own).
     */
    record Request(List<String> arguments, List<Path> joinFirst) {
        Request {
            arguments = List.copyOf(arguments);
            joinFirst = List.copyOf(joinFirst);
        }
    }

    /**
     * Writes the job's files and returns what its supervisor is to be given. Root's programs
     * (supervisor, cgroup joiner) never see the user's variables: PATH, LD_PRELOAD or BASH_ENV
     * would choose what runs as root; they reach the job through the environment file.
     *
     * @throws IOException when the job cannot be started here (the controller requeues or fails it)
     */
    Request prepare(BatchJob job) throws IOException {
        int jobId = job.jobId();
        int uid = job.owner().uid();
        JobSpool.Owner owner = new JobSpool.Owner(uid, job.owner().gid());
        if (daemonUid != 0 && uid != daemonUid) {
            throw new IOException("sluice-noded runs as uid " + daemonUid + " and cannot run jobs of uid " + uid
                    + " (run it as root to serve every user)");
        }
        Path script = spool.writeScript(jobId, job.submission().script().bytes());
        // Entered by the job's own shell, as the user (UserShell); the supervisor stays in "/".
        String workDir = job.io().runDir();
        if (daemonUid == 0) {
            // Only the script is the user's: the directory stays root's, since the supervisor
            // (root) writes its facts there and must not follow a link a job planted.
            JobSpool.chown(script, owner);
        }
        UserEnvironment userEnv = supervisor.userEnvironment();
        // A supervisor host (Perl's or C's) takes the job's variables in its request, as bytes: no
        // file, one new inode fewer per job (docs/execution.md). A supervisor started alone is
        // given them in a file: its arguments pass through the JDK's process launch, which
        // encodes them in the locale's charset; the shell supervisor's loader reads a file too.
        Path envFile = hosted ? Path.of("-") : spool.jobDir(jobId).resolve(JobSpool.ENVIRONMENT);
        BatchCommand built = BatchCommand.of(
                job,
                nodeName,
                daemonUid,
                cpuBinding,
                script,
                Path.of(workDir),
                userEnv,
                envFile,
                groups(job.owner()),
                supervisor.exact());
        List<String> dropped = userEnv.dropped(built.environment());
        if (!dropped.isEmpty()) {
            log.warn("job {}: without {} the variables {} cannot reach the job", jobId, Supervisor.PERL, dropped);
        }
        List<String> supervisorOptions = new ArrayList<>(built.options());
        if (hosted) {
            List<String> records = UserEnvironment.records(built.environment());
            supervisorOptions.add("--environment");
            supervisorOptions.add(Integer.toString(records.size()));
            supervisorOptions.addAll(records);
        } else {
            spool.writeEnvironment(
                    jobId, userEnv.encode(built.environment()), daemonUid == 0 ? Optional.of(owner) : Optional.empty());
        }
        Map<String, String> gresEnv = built.gresEnvironment();
        List<String> command = built.command();
        writeJobScript(jobId, "prolog", prolog, job, PrologEpilog.PROLOG_CONTEXT, gresEnv);
        writeJobScript(jobId, "epilog", epilog, job, PrologEpilog.EPILOG_CONTEXT, gresEnv);
        BatchJob.OnNode here = job.onNode();
        List<Path> cgroups =
                confinement.batchCgroups(jobId, here.memory().perNodeMb(), here.cpus(), here.cores(), here.gres());
        Path jobDir = spool.jobDir(jobId);
        if (supervisor.exact()) {
            // The Perl supervisor joins the cgroups itself, first thing: no joiner process.
            List<String> options = new ArrayList<>(Supervisor.cgroupOptions(cgroups));
            options.addAll(supervisorOptions);
            return new Request(supervisor.arguments(jobDir, options, command), List.of());
        }
        return new Request(supervisor.arguments(jobDir, supervisorOptions, command), cgroups);
    }

    /**
     * The groups the job gets, looked up here once the daemon can (the job's process, already
     * forked, would otherwise walk the group file): only needed to become another user.
     */
    private List<Integer> groups(BatchJob.Owner owner) {
        if (!supervisor.exact() || daemonUid != 0 || owner.uid() == 0) {
            return List.of();
        }
        try {
            return UserGroups.of(owner.userName(), owner.gid());
        } catch (IOException e) {
            log.warn("job of {}: {}; its groups are read from the group file", owner.userName(), e.getMessage());
            return List.of();
        }
    }

    private void writeJobScript(
            int jobId, String name, List<String> programs, BatchJob job, String context, Map<String, String> gresEnv)
            throws IOException {
        var text = PrologEpilog.wrapper(programs, PrologEpilog.environment(job, nodeName, context, gresEnv));
        if (text.isPresent()) {
            spool.writeExecutable(jobId, name, text.get());
        }
    }
}
