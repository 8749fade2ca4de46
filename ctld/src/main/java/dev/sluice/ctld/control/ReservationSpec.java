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
        Integer coreCount) {
    public ReservationSpec {
        flags = flags == null ? List.of() : List.copyOf(flags);
    }
}
