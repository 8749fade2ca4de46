package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import java.util.Map;

/**
 * The capacities of now plus what running jobs give back by a time, worked out per node the
 * first time that node is read. A reservation search asks about many times, and a greedy fill
 * reads the nodes only until the job fits: registering every release up to a time (tens of
 * thousands on a large cluster) for each time asked cost more than the reads. Read-only to its
 * users; iterates in the order of {@code now}. Not thread-safe (a read may work out a node).
 */
final class ReleasedView extends DerivedCapacity {
    private final Map<String, Integer> position;
    private final ReleaseIndex index;
    private final long time;
    private final NodeCapacity[] worked;

    /** {@code now} must stay as it is while the view is read (the timeline drops views when it changes). */
    ReleasedView(Map<String, NodeCapacity> now, Map<String, Integer> position, ReleaseIndex index, long time) {
        super(now);
        this.position = position;
        this.index = index;
        this.time = time;
        this.worked = new NodeCapacity[index.nodeEnds().length];
    }

    @Override
    public NodeCapacity get(Object key) {
        Integer pos = position.get(key);
        if (pos == null) {
            return under.get(key);
        }
        NodeCapacity c = worked[pos];
        if (c == null) {
            c = under.get(key);
            int given = index.upTo(pos, time);
            for (int k = 0; k < given; k++) {
                c = c.plus(index.nodeShares()[pos][k]);
            }
            worked[pos] = c;
        }
        return c;
    }
}
