package dev.sluice.ctld.wire;

import dev.sluice.ctld.state.Reservation;
import dev.sluice.protocol.v1.ReservationCores;
import dev.sluice.protocol.v1.ReservationInfo;

/** Advance reservations on the wire: the commands' {@code ReservationInfo} (and journal entries written before {@code ReservationRecord}). */
public final class ReservationWire {
    private ReservationWire() {}

    public static ReservationInfo toWire(Reservation r) {
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
                .setCoreCount(r.coreCount());
        r.cores()
                .forEach((node, ids) ->
                        b.addCores(ReservationCores.newBuilder().setNode(node).addAllIds(ids)));
        return b.addAllFlags(r.flagNames()).build();
    }

    public static Reservation toDomain(ReservationInfo r) {
        return new Reservation(
                r.getName(),
                r.getId(),
                r.getStartTime(),
                r.getEndTime(),
                r.getNodesList(),
                r.getPartition(),
                r.getUsersList(),
                r.getUsersExcluded(),
                r.getAccountsList(),
                Reservation.flagsNamed(r.getFlagsList()),
                r.getCoreCount(),
                Reservation.coresOf(r.getCoresList(), ReservationCores::getNode, ReservationCores::getIdsList));
    }
}
