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
 * @param added update only: {@code Users+=}, {@code Accounts+=} names as typed, or null
 * @param removed update only: {@code Users-=}, {@code Accounts-=} names as typed, or null
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
        Access added,
        Access removed) {
    /** Users and accounts an update adds or takes away, each a comma-separated list or null. */
    public record Access(String users, String accounts) {
        public static final Access NONE = new Access(null, null);
    }

    public ReservationSpec {
        flags = flags == null ? List.of() : List.copyOf(flags);
        added = added == null ? Access.NONE : added;
        removed = removed == null ? Access.NONE : removed;
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
                Access.NONE,
                Access.NONE);
    }
}
