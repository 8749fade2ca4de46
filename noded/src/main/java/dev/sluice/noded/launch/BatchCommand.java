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
 * What a batch script is started with: the command (CPU binding, its own session, the user's
 * identity, a shell that opens the output files as that user and execs the script) and the
 * job's environment. Pure: built from the launch alone.
 *
 * @param gresEnvironment the devices part of {@code environment}, which Prolog and Epilog see too
 */
record BatchCommand(List<String> command, Map<String, String> environment, Map<String, String> gresEnvironment) {

    static BatchCommand of(
            LaunchBatchJobRequest request,
            String nodeName,
            int daemonUid,
            CpuBinding.Policy cpuBinding,
            Path script,
            Path workDir) {
        JobSpec spec = request.getSpec();
        int uid = spec.getOwner().getUid();
        OutputPattern.Context ctx = new OutputPattern.Context(
                request.getJobId(), spec.getName(), spec.getOwner().getUserName(), nodeName, 0, 0, 0, "batch");
        String out = resolve(workDir, spec.getStdOut().isEmpty() ? "slurm-%j.out" : spec.getStdOut(), ctx);
        String err = spec.getStdErr().isEmpty() ? out : resolve(workDir, spec.getStdErr(), ctx);
        String in = spec.getStdIn().isEmpty() ? "/dev/null" : resolve(workDir, spec.getStdIn(), ctx);
        boolean append = spec.getOpenMode().equalsIgnoreCase("append");

        List<String> command = new ArrayList<>(cpuBinding.prefix(request.getCoresList()));
        command.add("setsid");
        if (daemonUid == 0 && uid != 0) {
            command.addAll(List.of(
                    "setpriv", "--reuid=" + uid, "--regid=" + spec.getOwner().getGid(), "--init-groups", "--"));
        }
        // The shell opens the output files, so they belong to the job's user.
        String redirect = append ? ">>" : ">";
        String errRedirect = err.equals(out) ? "2>&1" : "2" + redirect + "\"$2\"";
        command.addAll(List.of(
                "/bin/sh",
                "-c",
                "o=$1; e=$2; i=$3; shift 3; exec \"$@\" <\"$i\" " + redirect + "\"$o\" "
                        + errRedirect.replace("$2", "$e"),
                "slurmstepd",
                out,
                err,
                in,
                script.toString()));
        command.addAll(spec.getScriptArgsList());

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
        Map<String, String> gresEnv = GresEnvironment.build(
                request.getGresList(),
                request.getMpsPerGpuMap().entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        env.putAll(gresEnv);
        return new BatchCommand(command, env, gresEnv);
    }

    private static BatchEnvironment.JobFacts facts(LaunchBatchJobRequest r, String nodeName) {
        JobSpec s = r.getSpec();
        return new BatchEnvironment.JobFacts(
                r.getJobId(),
                s.getName(),
                r.getNodeList(),
                r.getNumNodes(),
                r.getNumTasks(),
                r.getCpusOnNode(),
                s.getCpusPerTask(),
                r.getJobCpusPerNode(),
                r.getTasksPerNode(),
                r.getMemPerNodeMb(),
                s.getMemPerCpuMb(),
                r.getPartition(),
                s.getAccount(),
                s.getQos(),
                s.getWorkDir(),
                s.getSubmitHost(),
                r.getClusterName(),
                nodeName,
                s.getOwner().getUid(),
                s.getOwner().getGid(),
                s.getOwner().getUserName());
    }

    private static String resolve(Path workDir, String pattern, OutputPattern.Context ctx) {
        String expanded = OutputPattern.expand(pattern, ctx);
        return expanded.startsWith("/") ? expanded : workDir.resolve(expanded).toString();
    }
}
