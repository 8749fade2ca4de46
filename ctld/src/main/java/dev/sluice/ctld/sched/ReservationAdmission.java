package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Reservation;
import java.util.List;

/**
 * Whether a job that names a reservation could ever run in it, as Slurm 22.05 tests it at
 * submission (compat 200-201): once the window has begun, a job of a reservation without FLEX
 * must fit on its nodes as configured, whatever runs there now,
 * and may name no node outside it. A reservation that has not begun is not tested: its jobs wait
 * for it. Pure.
 */
public final class ReservationAdmission {
    private ReservationAdmission() {}

    /** The test's answer. */
    public enum Verdict {
        /** It could run in the reservation (or the reservation does not confine it now). */
        FITS,
        /** It names ({@code -w}) a node the reservation does not hold. */
        NODE_OUTSIDE,
        /** Its reservation's nodes could never hold it. */
        DOES_NOT_FIT
    }

    /**
     * @param reservation the job's reservation in its window at {@code now}
     * @param idle the job's partition's nodes, each as if nothing ran there
     */
    public static Verdict of(Reservation reservation, long now, List<NodeCapacity> idle, PlacementRequest request) {
        if (!reservation.active(now)
                || reservation.has(ReservationFlag.FLEX)
                || reservation.has(ReservationFlag.ANY_NODES)) {
            return Verdict.FITS;
        }
        if (!reservation.nodes().containsAll(request.requiredNodes())) {
            return Verdict.NODE_OUTSIDE;
        }
        // Whole nodes, also of a partial reservation: Slurm takes a job that needs more than its
        // cores and leaves it waiting (Resources, compat 201).
        return fitsInside(reservation, idle, request) ? Verdict.FITS : Verdict.DOES_NOT_FIT;
    }

    /** Whether the reservation's nodes, all of them free, could hold the request. */
    static boolean fitsInside(Reservation reservation, List<NodeCapacity> idle, PlacementRequest request) {
        if (!reservation.nodes().containsAll(request.requiredNodes())) {
            return false;
        }
        List<NodeCapacity> inside = idle.stream()
                .filter(n -> reservation.nodes().contains(n.name()))
                .toList();
        // On idle nodes a request that does not fit now never will: Pending means the same here.
        return Allocator.place(inside, request) instanceof PlacementResult.Placed;
    }

    /** A node as the "could it ever run" check sees it: all of it free. */
    public static NodeCapacity idle(Node node) {
        return new NodeCapacity(
                node.name(),
                node.hardware(),
                node.hardware().cpus(),
                node.hardware().realMemoryMb(),
                true,
                true,
                node.features(),
                node.weight(),
                GresPool.idle(node.gres()),
                CoreSet.EMPTY);
    }
}
