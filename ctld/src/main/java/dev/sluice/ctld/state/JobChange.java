package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;

/**
 * One field {@code scontrol update job} changes, parsed once where the request arrives and
 * journaled typed (persistence's JobChangeCodec).
 */
public sealed interface JobChange {
    /** scontrol's name of the field: a record changes each field once. */
    default String key() {
        return switch (this) {
            case TimeLimit c -> "TimeLimit";
            case Name c -> "Name";
            case Comment c -> "Comment";
            case Nice c -> "Nice";
            case Priority c -> "Priority";
            case MinNodes c -> "MinNodes";
            case MaxNodes c -> "MaxNodes";
            case Tasks c -> "NumTasks";
            case PartitionName c -> "Partition";
            case ArrayThrottle c -> "ArrayTaskThrottle";
            case LicenseList c -> "Licenses";
            case ReservationName c -> "Reservation";
            case WckeyName c -> "WCKey";
        };
    }

    /** @param minutes on Slurm's uint32 scale (INFINITE for UNLIMITED) */
    record TimeLimit(long minutes) implements JobChange {}

    record Name(String name) implements JobChange {
        public Name {
            requireNonNull(name, "name is null");
        }
    }

    record Comment(String comment) implements JobChange {
        public Comment {
            requireNonNull(comment, "comment is null");
        }
    }

    record Nice(int nice) implements JobChange {}

    /** An operator's fixed priority. */
    record Priority(long priority) implements JobChange {}

    /** {@code NumNodes=N} (the least) or the first of {@code NumNodes=N-M}. */
    record MinNodes(int nodes) implements JobChange {}

    /** The second of {@code NumNodes=N-M}. */
    record MaxNodes(int nodes) implements JobChange {}

    /** {@code NumTasks=N}. */
    record Tasks(int tasks) implements JobChange {}

    /** {@code Partition=NAME}: the pending job moves to another partition. */
    record PartitionName(String partition) implements JobChange {
        public PartitionName {
            requireNonNull(partition, "partition is null");
        }
    }

    /**
     * {@code ArrayTaskThrottle=N}: the most tasks of the array that may run at once (0: no
     * limit), kept by the record of its pending tasks.
     */
    record ArrayThrottle(int throttle) implements JobChange {}

    /** {@code Licenses=}: the licenses a pending job asks for ({@code foo:2,bar:1}). */
    record LicenseList(Licenses licenses) implements JobChange {
        public LicenseList {
            requireNonNull(licenses, "licenses is null");
        }
    }

    /**
     * The reservation a job that named none runs in: a MAGNETIC one that took it in, as Slurm
     * 22.05 records it (compat 188). Set by the controller when the job starts, not by users.
     */
    record ReservationName(String reservation) implements JobChange {
        public ReservationName {
            requireNonNull(reservation, "reservation is null");
        }
    }

    /** {@code WCKey=}: the wckey a pending job carries, as the controller settled it. */
    record WckeyName(JobWckey wckey) implements JobChange {
        public WckeyName {
            requireNonNull(wckey, "wckey is null");
        }
    }
}
