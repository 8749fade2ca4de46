package dev.sluice.ctld.wire;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.protocol.v1.ReservationInfo;
import java.util.EnumSet;
import java.util.Set;

/** Advance reservations on the wire and in the journal ({@code ReservationInfo}). */
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
                .forEach((node, ids) -> b.addCores(dev.sluice.protocol.v1.ReservationCores.newBuilder()
                        .setNode(node)
                        .addAllIds(ids)));
        for (ReservationFlag f : ReservationFlag.values()) {
            if (r.has(f)) {
                b.addFlags(f.name());
            }
        }
        return b.build();
    }

    public static Reservation toDomain(ReservationInfo r) {
        Set<ReservationFlag> flags = EnumSet.noneOf(ReservationFlag.class);
        for (String f : r.getFlagsList()) {
            flags.add(ReservationFlag.valueOf(f));
        }
        java.util.Map<String, java.util.List<Integer>> cores = new java.util.LinkedHashMap<>();
        for (dev.sluice.protocol.v1.ReservationCores c : r.getCoresList()) {
            cores.put(c.getNode(), c.getIdsList());
        }
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
                flags,
                r.getCoreCount(),
                cores);
    }
}
