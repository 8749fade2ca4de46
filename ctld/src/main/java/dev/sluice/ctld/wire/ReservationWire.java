package dev.sluice.ctld.wire;

import dev.sluice.ctld.state.Reservation;
import dev.sluice.protocol.v1.ReservationCores;
import dev.sluice.protocol.v1.ReservationInfo;

/** Advance reservations on the wire: the commands' {@code ReservationInfo}. */
public final class ReservationWire {
    private ReservationWire() {}

    /**
     * @param listCores whether a partial reservation's cores are listed (slurmctld fills them in
     *     only once it has saved the reservation's state: {@code StateSaves})
     */
    public static ReservationInfo toWire(Reservation r, boolean listCores) {
        ReservationInfo.Builder b = ReservationInfo.newBuilder()
                .setName(r.name())
                .setId(r.id())
                .setStartTime(r.start())
                .setEndTime(r.end())
                .addAllNodes(r.nodes())
                .setPartition(r.partition())
                .addAllUsers(r.users())
                .setUsersExcluded(r.usersExcluded())
                .addAllAccounts(r.accounts())
                .setCoreCount(r.coreCount())
                .setLicenses(r.licenses().toString())
                .setCoresOnNodes(r.coresOnNodes());
        if (listCores) {
            // Cores held beside its nodes are not listed (Slurm 22.05, compat 291).
            r.cores().forEach((node, ids) -> {
                if (r.nodes().contains(node)) {
                    b.addCores(ReservationCores.newBuilder().setNode(node).addAllIds(ids));
                }
            });
        }
        return b.addAllFlags(r.flagNames()).build();
    }
}
