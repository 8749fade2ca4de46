package dev.sluice.noded.launch;

import dev.sluice.noded.job.BatchJob;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The node's {@code Prolog=} and {@code Epilog=} programs for one job, as the shell wrapper the
 * job's supervisor runs: each configured program in turn, as root, in an environment of its own
 * (Slurm's prolog environment, not the job's, so a user cannot steer root's script through
 * {@code --export}); the first program that fails fails the whole. Pure text: the launcher
 * writes it into the job's spool directory.
 */
final class PrologEpilog {
    static final String PROLOG_CONTEXT = "prolog_slurmd";
    static final String EPILOG_CONTEXT = "epilog_slurmd";

    private static final List<String> GPU_VARIABLES = List.of("CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL");

    private PrologEpilog() {}

    /** The wrapper for {@code programs}, or nothing when none is configured. */
    static Optional<String> wrapper(List<String> programs, Map<String, String> environment) {
        if (programs.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder("#!/bin/sh\n# written by sluice-noded for one job\n");
        for (String program : programs) {
            s.append("env -i");
            environment.forEach((k, v) -> s.append(' ').append(quote(k + "=" + v)));
            s.append(' ').append(quote(program)).append(" || exit $?\n");
        }
        return Optional.of(s.toString());
    }

    /** What Slurm's slurmd gives its Prolog and Epilog about the job (physical GPU indices too). */
    static Map<String, String> environment(
            BatchJob job, String nodeName, String context, Map<String, String> gresEnvironment) {
        Map<String, String> env = new TreeMap<>();
        env.put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("SLURM_SCRIPT_CONTEXT", context);
        env.put("SLURM_JOB_ID", Integer.toString(job.jobId()));
        env.put("SLURM_JOB_USER", job.owner().userName());
        env.put("SLURM_JOB_UID", Integer.toString(job.owner().uid()));
        env.put("SLURM_JOB_GID", Integer.toString(job.owner().gid()));
        env.put("SLURM_JOB_PARTITION", job.charge().partition());
        env.put("SLURM_JOB_NODELIST", job.layout().nodeList());
        env.put("SLURM_CLUSTER_NAME", job.layout().clusterName());
        env.put("SLURMD_NODENAME", nodeName);
        if (!job.charge().account().isEmpty()) {
            env.put("SLURM_JOB_ACCOUNT", job.charge().account());
        }
        if (!job.charge().constraint().isEmpty()) {
            env.put("SLURM_JOB_CONSTRAINTS", job.charge().constraint());
        }
        job.identity().array().ifPresent(a -> {
            env.put("SLURM_ARRAY_JOB_ID", Integer.toString(a.arrayJobId()));
            env.put("SLURM_ARRAY_TASK_ID", Integer.toString(a.taskId()));
        });
        for (String name : GPU_VARIABLES) {
            String v = gresEnvironment.get(name);
            if (v != null) {
                env.put(name, v);
            }
        }
        String gpus = gresEnvironment.get("SLURM_JOB_GPUS");
        if (gpus != null) {
            env.put("SLURM_JOB_GPUS", gpus);
        }
        return env;
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
