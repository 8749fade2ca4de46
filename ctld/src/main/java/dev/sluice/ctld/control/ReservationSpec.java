package dev.sluice.ctld.control;

import java.util.List;

/**
 * {@code scontrol create|update reservation Key=Value ...} as scontrol resolved it (times in
 * epoch seconds, {@code now+N} already added); a null field was not given.
 *
 * @param durationMinutes {@code Duration=}, {@link dev.sluice.common.slurm.SlurmLimits#INFINITE}
 *     for UNLIMITED
 * @param nodes {@code Nodes=} as typed: a hostlist or {@code ALL}
 * @param users {@code Users=} as typed: {@code a,b} or {@code -a,-b}
 * @param flags {@code Flags=} items as typed; in an update a leading {@code -} takes one away
 * @param coreCount {@code CoreCnt=} (or {@code TRES=cpu=}): the cores in all
 * @param coresPerNode {@code CoreCnt=2,1}: a count per node, in order (empty for one count)
 * @param change update only: {@code Users+=}/{@code Accounts+=} and {@code Users-=}/{@code
 *     Accounts-=} names as typed
 */
public record ReservationSpec(
        String name,
        Long start,
        Long end,
        Long durationMinutes,
        String nodes,
        Integer nodeCount,
        String partition,
        String users,
        String accounts,
        List<String> flags,
        Integer coreCount,
        List<Integer> coresPerNode,
        AccessChange change) {
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
        flags = flags == null ? List.of() : List.copyOf(flags);
        coresPerNode = coresPerNode == null ? List.of() : List.copyOf(coresPerNode);
        change = change == null ? AccessChange.NONE : change;
    }

    /** A spec that adds and takes away nobody. */
    public ReservationSpec(
            String name,
            Long start,
            Long end,
            Long durationMinutes,
            String nodes,
            Integer nodeCount,
            String partition,
            String users,
            String accounts,
            List<String> flags,
            Integer coreCount) {
        this(
                name,
                start,
                end,
                durationMinutes,
                nodes,
                nodeCount,
                partition,
                users,
                accounts,
                flags,
                coreCount,
                List.of(),
                AccessChange.NONE);
    }
}
