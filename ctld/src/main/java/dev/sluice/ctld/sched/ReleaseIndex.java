package dev.sluice.ctld.sched;

import dev.sluice.ctld.state.Allocation;
import java.util.List;
import java.util.Map;

/**
 * The running jobs' releases in order of their ends: how many have happened by a time, and per
 * node the shares (and CPUs) given back by then. Lets the reservation search weigh a candidate
 * time without building a view of it, and a view of a time be worked out only for the nodes read
 * ({@link ReleasedView}). Immutable; made once per set of releases.
 *
 * @param nodeEnds per node position, the ends of the releases on it, ascending
 * @param nodeCpus per node position, prefix sums of the CPUs those releases give back
 * @param nodeShares per node position, the shares those releases give back, in the same order
 */
record ReleaseIndex(
        List<AvailabilityTimeline.Interval> sorted,
        long[] ends,
        long[][] nodeEnds,
        long[][] nodeCpus,
        Allocation.NodeShare[][] nodeShares) {
    static ReleaseIndex of(List<AvailabilityTimeline.Interval> sorted, Map<String, Integer> position, int nodes) {
        long[] ends = new long[sorted.size()];
        int[] count = new int[nodes];
        for (int i = 0; i < sorted.size(); i++) {
            ends[i] = sorted.get(i).end();
            for (Allocation.NodeShare share : sorted.get(i).allocation().nodes()) {
                Integer pos = position.get(share.node());
                if (pos != null) {
                    count[pos]++;
                }
            }
        }
        long[][] nodeEnds = new long[nodes][];
        long[][] nodeCpus = new long[nodes][];
        Allocation.NodeShare[][] nodeShares = new Allocation.NodeShare[nodes][];
        for (int pos = 0; pos < nodes; pos++) {
            nodeEnds[pos] = new long[count[pos]];
            nodeCpus[pos] = new long[count[pos] + 1];
            nodeShares[pos] = new Allocation.NodeShare[count[pos]];
            count[pos] = 0;
        }
        for (AvailabilityTimeline.Interval r : sorted) {
            for (Allocation.NodeShare share : r.allocation().nodes()) {
                Integer pos = position.get(share.node());
                if (pos != null) {
                    int k = count[pos]++;
                    nodeEnds[pos][k] = r.end();
                    nodeCpus[pos][k + 1] = nodeCpus[pos][k] + share.cpus();
                    nodeShares[pos][k] = share;
                }
            }
        }
        return new ReleaseIndex(sorted, ends, nodeEnds, nodeCpus, nodeShares);
    }

    /** How many releases end by {@code t} (what a view of {@code t} has given back). */
    int upTo(long t) {
        return countUpTo(ends, t);
    }

    long releasedOn(int node, long t) {
        return nodeCpus[node][countUpTo(nodeEnds[node], t)];
    }

    /** How many releases on the node at {@code node} end by {@code t}. */
    int upTo(int node, long t) {
        return countUpTo(nodeEnds[node], t);
    }

    private static int countUpTo(long[] sortedEnds, long t) {
        int lo = 0;
        int hi = sortedEnds.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sortedEnds[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
