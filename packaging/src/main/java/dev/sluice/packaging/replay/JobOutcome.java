package dev.sluice.packaging.replay;

import dev.sluice.ctld.state.Allocation;
import java.util.List;

/**
 * What became of one replayed job. Times are seconds on the trace's clock (0 is the trace's
 * zero).
 *
 * @param backfilled started while a job ahead of it in its partition's order was left waiting
 *     for resources: what Slurm counts as a backfill start
 * @param timedOut its trace run time was longer than its time limit, so it was killed at the limit
 */
public record JobOutcome(
        long jobNumber,
        long submit,
        long start,
        long end,
        List<Allocation.NodeShare> shares,
        boolean backfilled,
        boolean timedOut) {
    public JobOutcome {
        shares = List.copyOf(shares);
    }

    public long cpus() {
        return shares.stream().mapToLong(Allocation.NodeShare::cpus).sum();
    }

    public long waited() {
        return start - submit;
    }

    public long ran() {
        return end - start;
    }
}
