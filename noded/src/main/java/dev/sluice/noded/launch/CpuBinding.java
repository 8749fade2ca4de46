package dev.sluice.noded.launch;

import dev.sluice.common.hostlist.IndexRanges;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Which CPUs a job's processes may run on: the CPUs of the cores the controller allocated, the
 * binding Slurm's task/affinity (and task/cgroup's cpuset) gives a batch script and its steps.
 * Core {@code c} holds CPUs {@code c*ThreadsPerCore} .. {@code (c+1)*ThreadsPerCore-1}, Slurm's
 * abstract numbering, the one gres.conf {@code Cores=} uses too.
 */
public final class CpuBinding {
    private CpuBinding() {}

    /**
     * Whether slurm.conf's {@code TaskPlugin} list binds tasks to CPUs. Slurm's default is
     * task/none; task/affinity binds with sched_setaffinity, task/cgroup with a cpuset, and
     * either confines a job to its allocated CPUs.
     */
    public static boolean binds(List<String> taskPlugins) {
        return taskPlugins.stream()
                .map(p -> p.trim().toLowerCase(Locale.ROOT))
                .anyMatch(p -> p.equals("task/affinity") || p.equals("task/cgroup"));
    }

    /** The CPU ids of {@code cores}, ascending, without repeats. */
    public static List<Integer> cpus(List<Integer> cores, int threadsPerCore) {
        if (threadsPerCore < 1) {
            throw new IllegalArgumentException("ThreadsPerCore must be positive: " + threadsPerCore);
        }
        TreeSet<Integer> cpus = new TreeSet<>();
        for (int core : cores) {
            if (core < 0) {
                throw new IllegalArgumentException("negative core index: " + core);
            }
            for (int t = 0; t < threadsPerCore; t++) {
                cpus.add(core * threadsPerCore + t);
            }
        }
        return List.copyOf(cpus);
    }

    /** A CPU list as Linux writes it ({@code 0-3,6}; /proc/self/status Cpus_allowed_list, taskset -c). */
    public static String cpuList(List<Integer> cpus) {
        return IndexRanges.format(cpus);
    }

    /**
     * What a node does with a job's cores: bind ({@code TaskPlugin} binds) or not, and how many
     * CPUs each core has.
     */
    public record Policy(boolean binds, int threadsPerCore) {
        /** Slurm's default, task/none: jobs run on every CPU of the node. */
        public static final Policy NONE = new Policy(false, 1);

        public Policy {
            if (threadsPerCore < 1) {
                throw new IllegalArgumentException("ThreadsPerCore must be positive: " + threadsPerCore);
            }
        }

        public static Policy of(List<String> taskPlugins, int threadsPerCore) {
            return new Policy(CpuBinding.binds(taskPlugins), Math.max(1, threadsPerCore));
        }

        /**
         * The command prefix that starts a job's process bound to the CPUs of {@code cores}
         * ({@code taskset}, from util-linux as {@code setpriv} is): the affinity is set in the
         * child before it executes the job, so nothing of the job runs unbound, and every process
         * it starts inherits it. Empty when the node does not bind or the cores are unknown.
         */
        public List<String> prefix(List<Integer> cores) {
            if (!binds || cores.isEmpty()) {
                return List.of();
            }
            return List.of("taskset", "--cpu-list", cpuList(cpus(cores, threadsPerCore)));
        }
    }
}
