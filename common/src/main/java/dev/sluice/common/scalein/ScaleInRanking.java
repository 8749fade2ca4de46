package dev.sluice.common.scalein;

import dev.sluice.common.slurm.SlurmLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranks nodes for scale-in. A node frees when the last job on it reaches its time limit, so its
 * key is the largest remaining time limit of its running jobs: 0 for an idle node, unlimited when
 * any job has no limit. Time limits, not predictions, because they are what the scheduler's
 * backfill also trusts; a job that ends early only frees its node sooner.
 *
 * <p>Order: soonest free first; at equal time a node already out of service (drained, down) before
 * one that still takes work, since removing it costs no capacity; then fewer running jobs (fewer
 * to wait for or requeue); then the caller's order (slurm.conf order), the sort being stable.
 */
public final class ScaleInRanking {
    /** Free-in value of a node running a job without time limit. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private ScaleInRanking() {}

    /** A node as the ranking sees it. */
    public record NodeSlot(String name, boolean outOfService) {}

    /**
     * A running job: the nodes it holds and the epoch second it reaches its time limit, or
     * {@link #UNLIMITED}.
     */
    public record RunningJob(List<String> nodes, long limitEnd) {
        public RunningJob {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * A ranked node: its 1-based rank, seconds until its jobs reach their limits ({@link
     * #UNLIMITED} for never), the epoch second that happens (0 when idle, {@link #UNLIMITED} for
     * never), and how many jobs run there.
     */
    public record Candidate(int rank, String name, boolean outOfService, long freeInSeconds, long freeAt, int jobs) {
        public boolean unlimited() {
            return freeInSeconds == UNLIMITED;
        }
    }

    /**
     * Ranks {@code nodes} at epoch second {@code now}. Jobs naming nodes that are not in
     * {@code nodes} are ignored, so a caller can rank a subset of the cluster.
     */
    public static List<Candidate> rank(List<NodeSlot> nodes, List<RunningJob> jobs, long now) {
        Map<String, long[]> load = new LinkedHashMap<>(); // name -> {latest limit end, job count}
        nodes.forEach(n -> load.put(n.name(), new long[] {0, 0}));
        for (RunningJob job : jobs) {
            for (String node : job.nodes()) {
                long[] l = load.get(node);
                if (l != null) {
                    l[0] = Math.max(l[0], job.limitEnd());
                    l[1]++;
                }
            }
        }
        List<Candidate> unranked = new ArrayList<>();
        for (NodeSlot n : nodes) {
            long[] l = load.get(n.name());
            long freeAt = l[0];
            long freeIn = freeAt == UNLIMITED ? UNLIMITED : Math.max(0, freeAt - now);
            unranked.add(new Candidate(0, n.name(), n.outOfService(), freeIn, freeAt, (int) l[1]));
        }
        unranked.sort(Comparator.comparingLong(Candidate::freeInSeconds)
                .thenComparing(c -> !c.outOfService())
                .thenComparingInt(Candidate::jobs));
        List<Candidate> ranked = new ArrayList<>(unranked.size());
        for (Candidate c : unranked) {
            ranked.add(new Candidate(
                    ranked.size() + 1, c.name(), c.outOfService(), c.freeInSeconds(), c.freeAt(), c.jobs()));
        }
        return ranked;
    }

    /** The end of a time limit: start plus limit, or {@link #UNLIMITED} for Slurm's INFINITE/NO_VAL. */
    public static long limitEnd(long startEpoch, long timeLimitMinutes) {
        return !SlurmLimits.isLimit(timeLimitMinutes) ? UNLIMITED : startEpoch + timeLimitMinutes * 60;
    }
}
