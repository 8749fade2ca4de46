package dev.sluice.noded.launch;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.spool.JobSpool;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What starting one batch job writes and runs: its script and environment in the spool (the
 * user's, when the daemon is root), its Prolog and Epilog wrappers, its cgroups, and the one
 * supervisor command ({@link Supervisor}) that runs the script as the user. The command runs
 * with root's fixed environment only: the user's variables reach the job through the
 * environment file, never a program root runs.
 */
record SupervisedStart(
        String nodeName,
        JobSpool spool,
        Supervisor supervisor,
        int daemonUid,
        CpuBinding.Policy cpuBinding,
        List<String> prolog,
        List<String> epilog,
        JobConfinement confinement) {
    private static final Logger log = LoggerFactory.getLogger(SupervisedStart.class);

    /**
     * Writes the job's files and returns the supervisor's process, not started.
     *
     * @throws IOException when the job cannot be started here (the controller requeues or fails it)
     */
    ProcessBuilder prepare(BatchJob job) throws IOException {
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
        Path envFile = spool.jobDir(jobId).resolve(JobSpool.ENVIRONMENT);
        BatchCommand built = BatchCommand.of(
                job, nodeName, daemonUid, cpuBinding, script, Path.of(workDir), userEnv, envFile, supervisor.exact());
        List<String> dropped = userEnv.dropped(built.environment());
        if (!dropped.isEmpty()) {
            log.warn("job {}: without {} the variables {} cannot reach the job", jobId, Supervisor.PERL, dropped);
        }
        spool.writeEnvironment(
                jobId, userEnv.encode(built.environment()), daemonUid == 0 ? Optional.of(owner) : Optional.empty());
        // Root's programs (cgroup joiner, supervisor; without Perl setsid, taskset, setpriv) never see
        // the user's variables: PATH, LD_PRELOAD or BASH_ENV would choose what runs as root.
        ProcessBuilder pb = new ProcessBuilder().directory(new File("/"));
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(UserEnvironment.ROOT);
        Map<String, String> gresEnv = built.gresEnvironment();
        List<String> command = built.command();
        writeJobScript(jobId, "prolog", prolog, job, PrologEpilog.PROLOG_CONTEXT, gresEnv);
        writeJobScript(jobId, "epilog", epilog, job, PrologEpilog.EPILOG_CONTEXT, gresEnv);
        BatchJob.OnNode here = job.onNode();
        List<java.nio.file.Path> cgroups =
                confinement.batchCgroups(jobId, here.memory().perNodeMb(), here.cpus(), here.cores(), here.gres());
        if (supervisor.exact()) {
            // The Perl supervisor joins the cgroups itself, first thing: no joiner process.
            List<String> options = new java.util.ArrayList<>(Supervisor.cgroupOptions(cgroups));
            options.addAll(built.options());
            pb.command(supervisor.command(spool.jobDir(jobId), options, command));
        } else {
            pb.command(dev.sluice.noded.confine.Confinement.joining(
                    cgroups, supervisor.command(spool.jobDir(jobId), built.options(), command)));
        }
        // The supervisor outlives this daemon: nothing may tie it to the daemon's pipes.
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return pb;
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
