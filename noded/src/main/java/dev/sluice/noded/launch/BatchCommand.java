package dev.sluice.noded.launch;

import dev.sluice.common.text.RawText;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a batch script is started with: the command and the job's environment. Under the Perl
 * supervisor ({@code direct}) the job's own process takes the user's identity, loads the
 * environment, enters the working directory and opens the output files before it execs the
 * script (the supervisor's {@code options}; the command is the CPU binding and the script);
 * under the shell supervisor a chain of programs does it (the user's identity, the environment
 * loader, a shell that opens the output files as that user and execs the script).
 * Pure: built from the launch alone.
 *
 * @param options the Perl supervisor's options for the job's process; empty for the chain
 * @param gresEnvironment the devices part of {@code environment}, which Prolog and Epilog see too
 */
record BatchCommand(
        List<String> options,
        List<String> command,
        Map<String, String> environment,
        Map<String, String> gresEnvironment) {

    static BatchCommand of(
            LaunchBatchJobRequest request,
            String nodeName,
            int daemonUid,
            CpuBinding.Policy cpuBinding,
            Path script,
            Path workDir,
            UserEnvironment userEnvironment,
            Path environmentFile,
            boolean direct) {
        JobSpec spec = request.getSpec();
        int uid = spec.getOwner().getUid();
        String out = outputPath(request, nodeName);
        String err = errorPath(request, nodeName);
        String in = spec.getStdIn().isEmpty()
                ? "/dev/null"
                : inWorkDir(spec, OutputPattern.expand(spec.getStdIn(), context(request, nodeName)));
        boolean append = spec.getOpenMode().equalsIgnoreCase("append");

        List<String> options = List.of();
        List<String> command = new ArrayList<>(cpuBinding.prefix(request.getCoresList()));
        if (direct) {
            // The same steps as the chain below, in the supervisor's child (sluice-supervise.pl).
            options = List.of(
                    "--user",
                    Integer.toString(uid),
                    Integer.toString(spec.getOwner().getGid()),
                    spec.getOwner().getUserName(),
                    environmentFile.toString(),
                    "--io",
                    workDir.toString(),
                    out,
                    err,
                    in,
                    nodeName,
                    append ? "1" : "0");
            command.add(script.toString());
            command.addAll(spec.getScriptArgsList());
        } else {
            List<String> shell = chain(command, spec, uid, daemonUid, out, err, in, append, workDir, nodeName, script);
            // Everything before this runs as root with UserEnvironment.ROOT; the job's variables
            // arrive only here, already as the user.
            command.addAll(userEnvironment.loading(environmentFile, shell));
        }
        return new BatchCommand(options, command, environment(request, nodeName), gresEnvironment(request));
    }

    /**
     * The chain after the CPU binding: the user's identity, added to {@code command}; returned,
     * the shell the environment loader becomes. The session is the shell supervisor's: its
     * setsid runs before the job's pid is published, so that no signal to the job's group can
     * come before the group exists ({@link Supervisor}).
     */
    private static List<String> chain(
            List<String> command,
            JobSpec spec,
            int uid,
            int daemonUid,
            String out,
            String err,
            String in,
            boolean append,
            Path workDir,
            String nodeName,
            Path script) {
        if (daemonUid == 0 && uid != 0) {
            command.addAll(List.of(
                    "setpriv", "--reuid=" + uid, "--regid=" + spec.getOwner().getGid(), "--init-groups", "--"));
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
        shell.addAll(spec.getScriptArgsList());
        return shell;
    }

    private static Map<String, String> environment(LaunchBatchJobRequest request, String nodeName) {
        JobSpec spec = request.getSpec();
        Map<String, String> env = new LinkedHashMap<>();
        // Values as RawText: bytes that are not UTF-8 stay escapes until JobEnvironmentFile.
        Map<String, String> submitted = new LinkedHashMap<>();
        spec.getEnvironmentMap().forEach((k, v) -> submitted.put(k, RawText.decode(v.toByteArray())));
        env.putAll(BatchEnvironment.build(submitted, facts(request, nodeName)));
        env.putAll(BatchEnvironment.array(
                request.getArrayJobId(),
                request.getArrayTaskId(),
                request.getArrayTaskCount(),
                request.getArrayTaskMin(),
                request.getArrayTaskMax(),
                request.getArrayTaskStep()));
        env.putAll(gresEnvironment(request));
        // The job's GPU request as sbatch exports it (srun inside reads them back).
        putIfGiven(env, "SLURM_GPUS", spec.getGpus());
        putIfGiven(env, "SLURM_GPUS_PER_NODE", spec.getGpusPerNode());
        putIfGiven(env, "SLURM_GPUS_PER_TASK", spec.getGpusPerTask());
        return env;
    }

    private static Map<String, String> gresEnvironment(LaunchBatchJobRequest request) {
        return GresEnvironment.build(
                request.getGresList(),
                request.getMpsPerGpuMap().entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    /**
     * The script's standard output, as {@code -o} names it, a relative name taken in the job's
     * working directory (as slurmd does, even when the job cannot enter that directory and
     * runs in /tmp).
     */
    static String outputPath(LaunchBatchJobRequest request, String nodeName) {
        JobSpec spec = request.getSpec();
        String defaultOut = request.getArrayJobId() > 0 ? "slurm-%A_%a.out" : "slurm-%j.out";
        return inWorkDir(
                spec,
                OutputPattern.expand(
                        spec.getStdOut().isEmpty() ? defaultOut : spec.getStdOut(), context(request, nodeName)));
    }

    /** The script's standard error: {@code -e}, or its output. */
    static String errorPath(LaunchBatchJobRequest request, String nodeName) {
        JobSpec spec = request.getSpec();
        return spec.getStdErr().isEmpty()
                ? outputPath(request, nodeName)
                : inWorkDir(spec, OutputPattern.expand(spec.getStdErr(), context(request, nodeName)));
    }

    /** Slurm's ExitCode 0:53 of a batch job whose files could not be opened. */
    static final int LAUNCH_FAILED_SIGNAL = 53;

    private static String inWorkDir(JobSpec spec, String path) {
        if (path.startsWith("/")) {
            return path;
        }
        String dir = spec.getWorkDir().isEmpty() ? "/tmp" : spec.getWorkDir();
        return dir.endsWith("/") ? dir + path : dir + "/" + path;
    }

    private static OutputPattern.Context context(LaunchBatchJobRequest request, String nodeName) {
        JobSpec spec = request.getSpec();
        // The batch step: %J is the bare job id and %s says "batch"; an array task's %A and %a
        // are its array's id and its index (sbatch(1), "filename pattern").
        return new OutputPattern.Context(
                request.getJobId(),
                spec.getName(),
                spec.getOwner().getUserName(),
                // %N is the short name of the host the node daemon runs on, not the NodeName
                // (Slurm 22.05: -o nodes/%N on node n1 of host vm makes nodes/vm).
                dev.sluice.common.daemon.HostName.shortName(),
                0,
                request.getArrayJobId(),
                request.getArrayTaskId(),
                "");
    }

    private static void putIfGiven(Map<String, String> env, String name, String value) {
        if (!value.isEmpty()) {
            env.put(name, value);
        }
    }

    private static BatchEnvironment.JobFacts facts(LaunchBatchJobRequest r, String nodeName) {
        JobSpec s = r.getSpec();
        return new BatchEnvironment.JobFacts(
                r.getJobId(),
                r.getClusterName(),
                nodeName,
                new BatchEnvironment.Layout(
                        r.getNodeList(),
                        r.getNumNodes(),
                        s.getNumTasks() > 0 || s.getNtasksPerNode() > 0 ? r.getNumTasks() : 0,
                        r.getCpusOnNode(),
                        s.getCpusPerTask(),
                        r.getJobCpusPerNode(),
                        r.getTasksPerNode()),
                new BatchEnvironment.Memory(r.getMemPerNodeMb(), s.getMemPerCpuMb()),
                new BatchEnvironment.Charge(r.getPartition(), s.getAccount(), s.getQos()),
                new BatchEnvironment.Submission(
                        s.getWorkDir(),
                        s.getSubmitHost(),
                        s.getOwner().getUid(),
                        s.getOwner().getGid(),
                        s.getOwner().getUserName()));
    }
}
