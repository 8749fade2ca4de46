package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.sched.ReservationAdmission;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import java.util.List;

/** What a submission must pass before it is decided, each refused with Slurm's error. Pure. */
final class SubmitChecks {
    private SubmitChecks() {}

    /** Every feature a constraint names must exist on some node, or Slurm refuses the job. */
    static void features(ClusterView state, JobRequest request) {
        for (String feature : request.placement().constraint().features()) {
            if (state.nodes().stream().noneMatch(n -> n.features().contains(feature))) {
                throw new SlurmException(ErrorCode.INVALID_FEATURE);
            }
        }
    }

    /**
     * A job may ask only for licenses slurm.conf configures, each at most its total
     * (slurm.conf(5) Licenses); Slurm refuses any other at submission.
     */
    static void licenses(dev.sluice.common.slurm.Licenses configured, JobRequest request) {
        if (!configured.admits(request.licenses())) {
            throw new SlurmException(ErrorCode.INVALID_LICENSES);
        }
    }

    /**
     * {@code --reservation=NAME}: it must exist ({@code Requested reservation is invalid}) and let
     * the job's user and account in ({@code Access denied to requested reservation}) and not have
     * ended, as Slurm 22.05 answers at submission.
     */
    static Reservation reservation(
            ClusterView state, JobRequest request, long now, dev.sluice.ctld.limits.AccountingPolicy policy) {
        if (request.reservation().isEmpty()) {
            return null;
        }
        Reservation kept = state.reservations().byName().get(request.reservation());
        if (kept == null) {
            throw new SlurmException(ErrorCode.RESERVATION_INVALID);
        }
        String user = request.owner().userName();
        String account = request.account() == null || request.account().isEmpty()
                ? policy.defaultAccounts().getOrDefault(user, "")
                : request.account();
        if (!kept.permits(user, account)) {
            throw new SlurmException(ErrorCode.RESERVATION_ACCESS);
        }
        if (kept.ended(now)) {
            // Ended but still kept until the periodic pass: Slurm 22.05 answers as for a job its
            // nodes cannot hold (compat 255).
            throw new SlurmException(
                    ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE,
                    ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text(),
                    "Problem using reservation");
        }
        return kept.window(now);
    }

    /**
     * A job in a reservation whose window has begun must fit on its nodes as configured, or Slurm
     * 22.05 refuses it ({@code Requested node configuration is not available}, after {@code
     * Problem using reservation} when it names a node outside; compat 200).
     */
    static void reservationFit(Reservation r, long now, List<NodeCapacity> idle, PlacementRequest placement) {
        if (r == null) {
            return;
        }
        switch (ReservationAdmission.of(r, now, idle, placement)) {
            case FITS -> {}
            case NODE_OUTSIDE ->
                throw new SlurmException(
                        ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE,
                        ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text(),
                        "Problem using reservation");
            case DOES_NOT_FIT -> throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
    }

    /**
     * The array and dependency texts must parse, or Slurm refuses the job. (The dependency was
     * read when the request arrived. A job id the controller does not know is accepted, as by
     * Slurm 22.05: the job it named has ended and been forgotten, so that part is met once the
     * job is considered.)
     */
    static void sequencing(ClusterView state, JobRequest request, int maxArraySize) {
        if (!request.sequencing().array().allowedUnder(maxArraySize)) {
            throw new SlurmException(ErrorCode.INVALID_ARRAY);
        }
        if (!request.sequencing().dependency().valid()) {
            throw new SlurmException(ErrorCode.DEPENDENCY);
        }
    }

    /** The partition a job asked for (the first of a list that exists), or the default one. */
    static Partition partition(ClusterView state, String requested) {
        if (requested == null || requested.isEmpty()) {
            return state.partitions().stream()
                    .filter(Partition::isDefault)
                    .findFirst()
                    .orElseThrow(() -> new SlurmException(ErrorCode.DEFAULT_PARTITION_NOT_SET));
        }
        // Slurm accepts a comma-separated list; the first that exists is used here.
        for (String name : requested.split(",")) {
            for (Partition p : state.partitions()) {
                if (p.name().equals(name.trim())) {
                    return p;
                }
            }
        }
        // Slurm's err_msg names what was asked for, before the error itself.
        throw new SlurmException(
                ErrorCode.INVALID_PARTITION_NAME,
                ErrorCode.INVALID_PARTITION_NAME.text(),
                "invalid partition specified: " + requested);
    }
}
