package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.JobSelector;
import dev.sluice.cli.view.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The order {@code scontrol show job} prints job records in, as Slurm 22.05's: by job id, and for
 * one job id asked for, that record first and then its array's others.
 */
final class JobRecordOrder {
    private JobRecordOrder() {}

    /** {@code shown} (the records selected) in the order they are printed. */
    static List<JobView> order(List<JobView> shown, Optional<JobSelector> selector) {
        List<JobView> byId = new ArrayList<>(shown);
        byId.sort(Comparator.comparingLong(v -> Integer.toUnsignedLong(v.info().getJobId())));
        return selector.isPresent() ? singleJobOrder(byId, selector.get().id()) : byId;
    }

    /**
     * The records of one job id as Slurm 22.05 loads that one job: the record with the id first,
     * then its array's others, the one split off last first (compat 295: tasks 2, 1, 0 of an
     * aftercorr array whose task 2 kept the array's id).
     *
     * @param byId the records, in job id order
     */
    static List<JobView> singleJobOrder(List<JobView> byId, long id) {
        List<JobView> out = new ArrayList<>(byId.size());
        byId.stream()
                .filter(v -> Integer.toUnsignedLong(v.info().getJobId()) == id)
                .forEach(out::add);
        List<JobView> rest = new ArrayList<>(byId);
        rest.removeAll(out);
        out.addAll(rest.reversed());
        return out;
    }
}
