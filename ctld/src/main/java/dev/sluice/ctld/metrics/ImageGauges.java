package dev.sluice.ctld.metrics;

import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counts the gauges publish, computed from one image. Pure: every scrape takes the latest
 * published image and asks this for its series, so a scrape never touches the loop.
 */
final class ImageGauges {
    private ImageGauges() {}

    /** A series: its label values (in the gauge's label order) and its value. */
    record Series(List<String> labels, double value) {}

    /**
     * Jobs per (state, partition). Every partition reports PENDING, RUNNING and SUSPENDED even at
     * zero, so a dashboard's line drops to 0 instead of vanishing; ended states appear while
     * the controller still remembers such jobs (MinJobAge).
     */
    static List<Series> jobsByState(ClusterImage image) {
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        for (Partition p : image.partitions()) {
            for (JobState s : List.of(JobState.PENDING, JobState.RUNNING, JobState.SUSPENDED)) {
                counts.put(List.of(s.name(), p.name()), 0);
            }
        }
        for (Job job : image.jobs()) {
            counts.merge(List.of(job.status().state().name(), job.terms().partition()), 1, Integer::sum);
        }
        return toSeries(counts);
    }

    /** Pending jobs per (partition, reason), with the reason squeue prints. */
    static List<Series> pendingReasons(ClusterImage image) {
        Map<List<String>, Integer> counts = new TreeMap<>(ImageGauges::compareLists);
        for (Job job : image.jobs()) {
            if (job.isPending()) {
                counts.merge(List.of(job.terms().partition(), image.reasonOf(job)), 1, Integer::sum);
            }
        }
        return toSeries(counts);
    }

    /** Nodes per state, in sinfo's long form (idle, mixed, allocated, drained, draining, down, ...). */
    static List<Series> nodesByState(ClusterImage image) {
        Map<List<String>, Integer> counts = new TreeMap<>(ImageGauges::compareLists);
        for (NodeView n : image.nodes()) {
            counts.merge(List.of(sinfoState(n)), 1, Integer::sum);
        }
        return toSeries(counts);
    }

    /** sinfo's %T without its condition suffix: a drained node runs nothing, a draining one does. */
    static String sinfoState(NodeView n) {
        return n.status().longNameAlone();
    }

    /**
     * GRES per (node, name, type): configured total, or what running jobs hold. MPS and shard
     * units of one GPU are summed into the node's total for that name.
     */
    static List<Series> gres(ClusterImage image, boolean allocated) {
        Map<List<String>, Long> sums = new LinkedHashMap<>();
        for (NodeView n : image.nodes()) {
            for (GresUnit u : n.gres().inventory().units()) {
                long v = allocated ? n.gres().used(u) : u.capacity();
                sums.merge(List.of(n.name(), u.name(), u.type()), v, Long::sum);
            }
        }
        return sums.entrySet().stream()
                .map(e -> new Series(e.getKey(), e.getValue()))
                .toList();
    }

    /**
     * Per node, the seconds until every job running on it reaches its time limit: 0 for a node
     * running nothing, +Inf when a job has no limit. The same numbers {@code scontrol show
     * scalein} ranks by ({@link ScaleInRanking}); listed here in node order.
     */
    static List<Series> freeIn(ClusterImage image, long now) {
        List<ScaleInRanking.NodeSlot> slots = image.nodes().stream()
                .map(n -> new ScaleInRanking.NodeSlot(n.name(), false))
                .toList();
        List<ScaleInRanking.RunningJob> running = new ArrayList<>();
        for (Job job : image.jobs()) {
            if (job.isRunning() && job.allocation() != null) {
                running.add(new ScaleInRanking.RunningJob(
                        job.allocation().nodeNames(),
                        ScaleInRanking.limitEnd(
                                job.run().startTime(), job.terms().timeLimitMinutes())));
            }
        }
        Map<String, Double> byNode = new HashMap<>();
        for (ScaleInRanking.Candidate c : ScaleInRanking.rank(slots, running, now)) {
            byNode.put(c.name(), c.unlimited() ? Double.POSITIVE_INFINITY : c.freeInSeconds());
        }
        return slots.stream()
                .map(n -> new Series(List.of(n.name()), byNode.get(n.name())))
                .toList();
    }

    private static List<Series> toSeries(Map<List<String>, Integer> counts) {
        return counts.entrySet().stream()
                .map(e -> new Series(e.getKey(), e.getValue()))
                .toList();
    }

    private static int compareLists(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }
}
