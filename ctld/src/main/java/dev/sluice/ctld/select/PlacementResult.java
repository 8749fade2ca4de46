package dev.sluice.ctld.select;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.Allocation;

/**
 * The allocator's three answers (Flux's EBUSY vs ENODEV, Kubernetes' Unschedulable vs
 * UnschedulableAndUnresolvable): placed now; not now, with Slurm's pending reason; or never,
 * with the error {@code sbatch} reports at submission.
 */
public sealed interface PlacementResult {
    record Placed(Allocation allocation) implements PlacementResult {
        public Placed {
            requireNonNull(allocation, "allocation is null");
        }
    }

    /** Could run on this cluster, but not now; {@code reason} is Slurm's pending reason. */
    record Pending(JobReason reason) implements PlacementResult {
        public Pending {
            requireNonNull(reason, "reason is null");
        }
    }

    /** Can never run as requested, even on an idle cluster. */
    record Rejected(ErrorCode error) implements PlacementResult {
        public Rejected {
            requireNonNull(error, "error is null");
        }
    }
}
