package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;

/**
 * One field {@code scontrol update job} changes, parsed once where the request arrives; the
 * journal keeps each as its canonical key and text ({@link #key()}, {@link #text()}), the form
 * it always had.
 */
public sealed interface JobChange {
    /** The journal's key. */
    String key();

    /** The journal's text of the value. */
    String text();

    /** @param minutes on Slurm's uint32 scale (INFINITE for UNLIMITED) */
    record TimeLimit(long minutes) implements JobChange {
        public String key() {
            return "TimeLimit";
        }

        public String text() {
            return Long.toString(minutes);
        }
    }

    record Name(String name) implements JobChange {
        public Name {
            requireNonNull(name, "name is null");
        }

        public String key() {
            return "Name";
        }

        public String text() {
            return name;
        }
    }

    record Comment(String comment) implements JobChange {
        public Comment {
            requireNonNull(comment, "comment is null");
        }

        public String key() {
            return "Comment";
        }

        public String text() {
            return comment;
        }
    }

    record Nice(int nice) implements JobChange {
        public String key() {
            return "Nice";
        }

        public String text() {
            return Integer.toString(nice);
        }
    }

    /** An operator's fixed priority. */
    record Priority(long priority) implements JobChange {
        public String key() {
            return "Priority";
        }

        public String text() {
            return Long.toString(priority);
        }
    }

    /** {@code NumNodes=N} (the least) or the first of {@code NumNodes=N-M}. */
    record MinNodes(int nodes) implements JobChange {
        public String key() {
            return "MinNodes";
        }

        public String text() {
            return Integer.toString(nodes);
        }
    }

    /** The second of {@code NumNodes=N-M}. */
    record MaxNodes(int nodes) implements JobChange {
        public String key() {
            return "MaxNodes";
        }

        public String text() {
            return Integer.toString(nodes);
        }
    }

    /** {@code NumTasks=N}. */
    record Tasks(int tasks) implements JobChange {
        public String key() {
            return "NumTasks";
        }

        public String text() {
            return Integer.toString(tasks);
        }
    }

    /** {@code Partition=NAME}: the pending job moves to another partition. */
    record PartitionName(String partition) implements JobChange {
        public PartitionName {
            requireNonNull(partition, "partition is null");
        }

        public String key() {
            return "Partition";
        }

        public String text() {
            return partition;
        }
    }

    /**
     * {@code ArrayTaskThrottle=N}: the most tasks of the array that may run at once (0: no
     * limit), kept by the record of its pending tasks.
     */
    record ArrayThrottle(int throttle) implements JobChange {
        public String key() {
            return "ArrayTaskThrottle";
        }

        public String text() {
            return Integer.toString(throttle);
        }
    }

    /** {@code Licenses=}: the licenses a pending job asks for ({@code foo:2,bar:1}). */
    record LicenseList(Licenses licenses) implements JobChange {
        public LicenseList {
            requireNonNull(licenses, "licenses is null");
        }

        public String key() {
            return "Licenses";
        }

        public String text() {
            return licenses.toString();
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

        public String key() {
            return "Reservation";
        }

        public String text() {
            return reservation;
        }
    }

    /**
     * A change as the journal holds it.
     *
     * @throws IllegalArgumentException for a key or value this binary does not understand
     */
    static JobChange of(String key, String text) {
        return switch (key) {
            case "TimeLimit" -> new TimeLimit(Long.parseLong(text));
            case "Name" -> new Name(text);
            case "Comment" -> new Comment(text);
            case "Nice" -> new Nice(Integer.parseInt(text));
            case "Priority" -> new Priority(Long.parseLong(text));
            case "MinNodes" -> new MinNodes(Integer.parseInt(text));
            case "MaxNodes" -> new MaxNodes(Integer.parseInt(text));
            case "NumTasks" -> new Tasks(Integer.parseInt(text));
            case "Partition" -> new PartitionName(text);
            case "ArrayTaskThrottle" -> new ArrayThrottle(Integer.parseInt(text));
            case "Licenses" -> new LicenseList(Licenses.parse(text));
            case "Reservation" -> new ReservationName(text);
            default -> throw new IllegalArgumentException("unknown job change " + key);
        };
    }
}
