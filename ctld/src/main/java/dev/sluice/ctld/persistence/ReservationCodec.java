package dev.sluice.ctld.persistence;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.protocol.v1.journal.JournalLegacyReservation;
import dev.sluice.protocol.v1.journal.ReservationRecord;
import dev.sluice.protocol.v1.journal.ReservationSavedRecord;
import dev.sluice.protocol.v1.journal.ReservedCores;

/**
 * An advance reservation to and from the journal's own record ({@code ReservationRecord}), not
 * the commands' {@code ReservationInfo}; entries written with that before are still read (as
 * {@code JournalLegacyReservation}, its shape then).
 */
final class ReservationCodec {
    private ReservationCodec() {}

    static ReservationSavedRecord saved(Reservation r) {
        ReservationRecord.Builder b = ReservationRecord.newBuilder()
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
                .addAllFlags(r.flagNames())
                .setLicenses(r.licenses().toString());
        r.cores()
                .forEach((node, ids) ->
                        b.addCores(ReservedCores.newBuilder().setNode(node).addAllIds(ids)));
        return ReservationSavedRecord.newBuilder().setSaved(b).build();
    }

    /** @throws IllegalArgumentException for a flag this binary does not know */
    static Reservation reservation(ReservationSavedRecord e) {
        if (!e.hasSaved()) {
            return legacy(e.getReservation());
        }
        ReservationRecord r = e.getSaved();
        return new Reservation(
                r.getName(),
                r.getId(),
                r.getStartTime(),
                r.getEndTime(),
                new Reservation.Holding(
                        r.getNodesList(),
                        r.getPartition(),
                        r.getCoreCount(),
                        Reservation.coresOf(r.getCoresList(), ReservedCores::getNode, ReservedCores::getIdsList),
                        // Records written before reservations held licenses have none.
                        Licenses.parse(r.getLicenses())),
                new Reservation.Access(r.getUsersList(), r.getUsersExcluded(), r.getAccountsList()),
                Reservation.flagsNamed(r.getFlagsList()));
    }

    private static Reservation legacy(JournalLegacyReservation r) {
        return new Reservation(
                r.getName(),
                r.getId(),
                r.getStartTime(),
                r.getEndTime(),
                new Reservation.Holding(
                        r.getNodesList(),
                        r.getPartition(),
                        r.getCoreCount(),
                        Reservation.coresOf(r.getCoresList(), ReservedCores::getNode, ReservedCores::getIdsList)),
                new Reservation.Access(r.getUsersList(), r.getUsersExcluded(), r.getAccountsList()),
                Reservation.flagsNamed(r.getFlagsList()));
    }
}
