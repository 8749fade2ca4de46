package dev.sluice.ctld.control;

import java.util.List;

/**
 * {@code scontrol create|update reservation Key=Value ...} as scontrol resolved it (times in
 * epoch seconds, {@code now+N} already added); a null field was not given.
 *
 * @param window {@code StartTime=}, {@code EndTime=} and {@code Duration=}
 * @param nodes {@code Nodes=} as typed: a hostlist or {@code ALL}
 * @param users {@code Users=} as typed: {@code a,b} or {@code -a,-b}
 * @param flags {@code Flags=} items as typed; in an update a leading {@code -} takes one away
 * @param cores {@code CoreCnt=} (or {@code TRES=cpu=})
 * @param change update only: {@code Users+=}/{@code Accounts+=} and {@code Users-=}/{@code
 *     Accounts-=} names as typed
 * @param licenses {@code Licenses=} as typed ({@code foo:2,bar}); in an update, empty clears them
 */
public record ReservationSpec(
        String name,
        Window window,
        String nodes,
        Integer nodeCount,
        String partition,
        String users,
        String accounts,
        List<String> flags,
        Cores cores,
        AccessChange change,
        String licenses) {
    /**
     * {@code StartTime=}, {@code EndTime=} and {@code Duration=} (minutes, {@link
     * dev.sluice.common.slurm.SlurmLimits#INFINITE} for UNLIMITED), each null when not given.
     */
    public record Window(Long start, Long end, Long durationMinutes) {
        public static final Window NONE = new Window(null, null, null);
    }

    /**
     * {@code CoreCnt=}: the cores in all, null when not given, and for {@code CoreCnt=2,1} a count
     * per node, in order (empty for one count).
     */
    public record Cores(Integer count, List<Integer> perNode) {
        public static final Cores NONE = new Cores(null, List.of());

        public Cores {
            perNode = perNode == null ? List.of() : List.copyOf(perNode);
        }
    }

    /** Users and accounts an update adds or takes away, each a comma-separated list or null. */
    public record Access(String users, String accounts) {
        public static final Access NONE = new Access(null, null);
    }

    /** What an update adds ({@code +=}) and takes away ({@code -=}). */
    public record AccessChange(Access added, Access removed) {
        public static final AccessChange NONE = new AccessChange(Access.NONE, Access.NONE);

        public AccessChange {
            added = added == null ? Access.NONE : added;
            removed = removed == null ? Access.NONE : removed;
        }
    }

    public ReservationSpec {
        window = window == null ? Window.NONE : window;
        flags = flags == null ? List.of() : List.copyOf(flags);
        cores = cores == null ? Cores.NONE : cores;
        change = change == null ? AccessChange.NONE : change;
    }

    public Long start() {
        return window.start();
    }

    public Long end() {
        return window.end();
    }

    public Long durationMinutes() {
        return window.durationMinutes();
    }

    /** A spec of reservation {@code name} that gives nothing else until its builder names it. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Collects a spec by name; a field not set (or set to null) was not given. */
    public static final class Builder {
        private final String name;
        private Long start;
        private Long end;
        private Long durationMinutes;
        private String nodes;
        private Integer nodeCount;
        private String partition;
        private String users;
        private String accounts;
        private List<String> flags = List.of();
        private Integer coreCount;
        private List<Integer> coresPerNode = List.of();
        private AccessChange change = AccessChange.NONE;
        private String licenses;

        private Builder(String name) {
            this.name = name;
        }

        public Builder start(Long value) {
            this.start = value;
            return this;
        }

        public Builder end(Long value) {
            this.end = value;
            return this;
        }

        public Builder durationMinutes(Long value) {
            this.durationMinutes = value;
            return this;
        }

        public Builder nodes(String value) {
            this.nodes = value;
            return this;
        }

        public Builder nodeCount(Integer value) {
            this.nodeCount = value;
            return this;
        }

        public Builder partition(String value) {
            this.partition = value;
            return this;
        }

        public Builder users(String value) {
            this.users = value;
            return this;
        }

        public Builder accounts(String value) {
            this.accounts = value;
            return this;
        }

        public Builder flags(List<String> value) {
            this.flags = value;
            return this;
        }

        public Builder coreCount(Integer value) {
            this.coreCount = value;
            return this;
        }

        public Builder coresPerNode(List<Integer> value) {
            this.coresPerNode = value;
            return this;
        }

        public Builder change(AccessChange value) {
            this.change = value;
            return this;
        }

        public Builder licenses(String value) {
            this.licenses = value;
            return this;
        }

        public ReservationSpec build() {
            return new ReservationSpec(
                    name,
                    new Window(start, end, durationMinutes),
                    nodes,
                    nodeCount,
                    partition,
                    users,
                    accounts,
                    flags,
                    new Cores(coreCount, coresPerNode),
                    change,
                    licenses);
        }
    }
}
