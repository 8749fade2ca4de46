package dev.sluice.ctld.queue;

import java.util.Map;

/**
 * The {@code Priority} of each QOS, for priority/multifactor's QOS factor: a job's QOS
 * priority over the largest QOS priority, in [0, 1] (Slurm's normalised QOS priority). A job
 * without {@code --qos} counts as QOS {@code normal}, and a QOS not in the table, or a table
 * whose largest priority is 0, gives factor 0.
 *
 * <p>Slurm keeps QOS in slurmdbd ({@code sacctmgr add qos ... Priority=N}); until the
 * controller receives QOS from accounting it knows only Slurm's built-in {@code normal} QOS,
 * priority 0 ({@link #DEFAULT}).
 */
public record QosPriorities(Map<String, Long> priorities) {
    /** The QOS every Slurm database starts with: {@code normal}, priority 0. */
    public static final QosPriorities DEFAULT = new QosPriorities(Map.of("normal", 0L));

    public QosPriorities {
        priorities = Map.copyOf(priorities);
        if (priorities.values().stream().anyMatch(p -> p < 0)) {
            throw new IllegalArgumentException("negative QOS priority in " + priorities);
        }
    }

    /** The QOS factor of a job submitted with {@code qos} (empty = the default QOS). */
    public double factor(String qos) {
        long max = priorities.values().stream().mapToLong(Long::longValue).max().orElse(0);
        if (max == 0) {
            return 0;
        }
        String name = qos == null || qos.isEmpty() ? "normal" : qos;
        return priorities.getOrDefault(name, 0L) / (double) max;
    }
}
