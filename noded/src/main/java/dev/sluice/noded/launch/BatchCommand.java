package dev.sluice.noded.launch;

import dev.sluice.noded.job.BatchJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a batch script is started with: the command and the job's environment. Under the Perl
 * supervisor ({@code direct}) the job's own process takes the user's identity, loads the
 * environment, enters the working directory and opens the output files before it execs the
 * script (the supervisor's {@code options}; the command is the CPU binding and the script);
 * under the shell supervisor a chain of programs does it (the user's identity, the environment
 * loader, a shell that opens the output files as that user and execs the script).
 * Pure: built from the job alone.
 *
 * @param options the Perl supervisor's options for the job's process; empty for the chain
 * @param gresEnvironment the devices part of {@code environment}, which Prolog and Epilog see too
 */
record BatchCommand(
        List<String> options,
        List<String> command,
        Map<String, String> environment,
        Map<String, String> gresEnvironment) {

    /**
     * @param groups the user's groups ({@link UserGroups}), given to the job's process under the
     *     Perl supervisor; empty: unknown, that process looks them up in the group file itself
     */
    static BatchCommand of(
            BatchJob job,
            String nodeName,
            int daemonUid,
            CpuBinding.Policy cpuBinding,
            Path script,
            Path workDir,
            UserEnvironment userEnvironment,
            Path environmentFile,
            List<Integer> groups,
            boolean direct) {
        BatchJob.Owner owner = job.owner();
        int uid = owner.uid();
        String out = outputPath(job, nodeName);
        String err = errorPath(job, nodeName);
        String in = job.io()
                .stdIn()
                .map(pattern -> inWorkDir(job, OutputPattern.expand(pattern, context(job, nodeName))))
                .orElse("/dev/null");
        boolean append = job.io().append();
        List<String> args = job.submission().script().args();

        List<String> options = List.of();
        List<String> command = new ArrayList<>(cpuBinding.prefix(job.onNode().cores()));
        if (direct) {
            // The same steps as the chain below, in the supervisor's child (sluice-supervise.pl).
            options = List.of(
                    "--user",
                    Integer.toString(uid),
                    Integer.toString(owner.gid()),
                    owner.userName(),
                    environmentFile.toString(),
                    String.join(",", groups.stream().map(String::valueOf).toList()),
                    "--io",
                    workDir.toString(),
                    out,
                    err,
                    in,
                    nodeName,
                    append ? "1" : "0");
            command.add(script.toString());
            command.addAll(args);
        } else {
            List<String> shell =
                    chain(command, owner, args, daemonUid, out, err, in, append, workDir, nodeName, script);
            // Everything before this runs as root with UserEnvironment.ROOT; the job's variables
            // arrive only here, already as the user.
            command.addAll(userEnvironment.loading(environmentFile, shell));
        }
        return new BatchCommand(options, command, environment(job, nodeName), gresEnvironment(job));
    }

    /**
     * The chain after the CPU binding: the user's identity, added to {@code command}; returned,
     * the shell the environment loader becomes. The session is the shell supervisor's: its
     * setsid runs before the job's pid is published, so that no signal to the job's group can
     * come before the group exists ({@link Supervisor}).
     */
    private static List<String> chain(
            List<String> command,
            BatchJob.Owner owner,
            List<String> args,
            int daemonUid,
            String out,
            String err,
            String in,
            boolean append,
            Path workDir,
            String nodeName,
            Path script) {
        if (daemonUid == 0 && owner.uid() != 0) {
            command.addAll(
                    List.of("setpriv", "--reuid=" + owner.uid(), "--regid=" + owner.gid(), "--init-groups", "--"));
        }
        // The shell, already the job's user, enters the working directory and opens the output
        // files, so they belong to the user and nothing is opened with the daemon's rights.
        // Truncated first (unless --open-mode=append), then opened for appending: the node's own
        // lines (EndNotice) are appended by another process while the job writes, and without
        // O_APPEND the job would write over them at its own offset (slurmstepd shares the job's).
        // A file that cannot be opened (a working directory that does not exist, for the
        // default slurm-%j.out) is a failed launch, as slurmstepd's: the shell ends by signal
        // 53, which the controller records as FAILED, JobLaunchFailure, ExitCode 0:53.
        String truncate = append ? "" : ": >\"$o\" && " + (err.equals(out) ? "" : ": >\"$e\" && ");
        String errRedirect = err.equals(out) ? "2>&1" : "2>>\"$e\"";
        List<String> shell = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                "w=$1; o=$2; e=$3; i=$4; n=$5; shift 5; " + UserShell.ENTER + "( " + truncate + "exec <\"$i\" >>\"$o\" "
                        + errRedirect + " ) 2>/dev/null || kill -s " + LAUNCH_FAILED_SIGNAL
                        + " $$; exec <\"$i\" >>\"$o\" "
                        + errRedirect + "; " + UserShell.REPORT + "exec \"$@\"",
                "slurmstepd",
                workDir.toString(),
                out,
                err,
                in,
                nodeName,
                script.toString()));
        shell.addAll(args);
        return shell;
    }

    private static Map<String, String> environment(BatchJob job, String nodeName) {
        Map<String, String> env = new LinkedHashMap<>();
        env.putAll(BatchEnvironment.build(job.submission().environment(), facts(job, nodeName)));
        job.identity()
                .array()
                .ifPresent(a -> env.putAll(
                        BatchEnvironment.array(a.arrayJobId(), a.taskId(), a.count(), a.min(), a.max(), a.step())));
        env.putAll(gresEnvironment(job));
        // The job's GPU request as sbatch exports it (srun inside reads them back).
        putIfGiven(env, "SLURM_GPUS", job.gpuRequest().gpus());
        putIfGiven(env, "SLURM_GPUS_PER_NODE", job.gpuRequest().perNode());
        putIfGiven(env, "SLURM_GPUS_PER_TASK", job.gpuRequest().perTask());
        return env;
    }

    static Map<String, String> gresEnvironment(BatchJob job) {
        return GresEnvironment.build(job.onNode().gres(), job.onNode().mpsPerGpu());
    }

    /**
     * The script's standard output, as {@code -o} names it, a relative name taken in the job's
     * working directory (as slurmd does, even when the job cannot enter that directory and
     * runs in /tmp).
     */
    static String outputPath(BatchJob job, String nodeName) {
        String defaultOut = job.identity().array().isPresent() ? "slurm-%A_%a.out" : "slurm-%j.out";
        return inWorkDir(job, OutputPattern.expand(job.io().stdOut().orElse(defaultOut), context(job, nodeName)));
    }

    /** The script's standard error: {@code -e}, or its output. */
    static String errorPath(BatchJob job, String nodeName) {
        return job.io()
                .stdErr()
                .map(pattern -> inWorkDir(job, OutputPattern.expand(pattern, context(job, nodeName))))
                .orElseGet(() -> outputPath(job, nodeName));
    }

    /** Slurm's ExitCode 0:53 of a batch job whose files could not be opened. */
    static final int LAUNCH_FAILED_SIGNAL = 53;

    private static String inWorkDir(BatchJob job, String path) {
        if (path.startsWith("/")) {
            return path;
        }
        String dir = job.io().runDir();
        return dir.endsWith("/") ? dir + path : dir + "/" + path;
    }

    private static OutputPattern.Context context(BatchJob job, String nodeName) {
        // The batch step: %J is the bare job id and %s says "batch"; an array task's %A and %a
        // are its array's id and its index (sbatch(1), "filename pattern").
        var array = job.identity().array();
        return new OutputPattern.Context(
                job.jobId(),
                job.identity().name(),
                job.owner().userName(),
                // %N is the short name of the host the node daemon runs on, not the NodeName
                // (Slurm 22.05: -o nodes/%N on node n1 of host vm makes nodes/vm).
                dev.sluice.common.daemon.HostName.shortName(),
                0,
                array.map(BatchJob.ArrayTask::arrayJobId).orElse(0),
                array.map(BatchJob.ArrayTask::taskId).orElse(0),
                "");
    }

    private static void putIfGiven(Map<String, String> env, String name, Optional<String> value) {
        value.ifPresent(v -> env.put(name, v));
    }

    private static BatchEnvironment.JobFacts facts(BatchJob job, String nodeName) {
        BatchJob.Layout l = job.layout();
        BatchJob.OnNode here = job.onNode();
        BatchJob.Owner owner = job.owner();
        return new BatchEnvironment.JobFacts(
                job.jobId(),
                l.clusterName(),
                nodeName,
                new BatchEnvironment.Layout(
                        l.nodeList(),
                        l.numNodes(),
                        l.numTasks(),
                        here.cpus(),
                        here.cpusPerTask(),
                        l.jobCpusPerNode(),
                        l.tasksPerNode()),
                new BatchEnvironment.Memory(
                        here.memory().perNodeMb(), here.memory().perCpuMb()),
                new BatchEnvironment.Charge(
                        job.charge().partition(),
                        job.charge().account(),
                        job.charge().qos()),
                new BatchEnvironment.Submission(
                        job.io().workDir().orElse(""),
                        job.submission().submitHost(),
                        owner.uid(),
                        owner.gid(),
                        owner.userName()));
    }
}
