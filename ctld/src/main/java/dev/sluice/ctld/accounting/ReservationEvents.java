package dev.sluice.ctld.accounting;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.ReservationAccountingRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What accounting learns of advance reservations: each create or update ships the reservation as
 * it stands, each delete its name. The controller keeps no memory of what it sent: sluice-dbd
 * compares a record with the reservation's current row and decides whether it is an update in
 * place or the start of a new row (Slurm's history), so a resend after a restart is harmless.
 * Pure.
 */
public final class ReservationEvents {
    private ReservationEvents() {}

    /** The record a journal record makes, if it is about a reservation. */
    public static Optional<AccountingRecord.Builder> of(StateRecord record) {
        return switch (record) {
            case StateRecord.ReservationSaved r -> Optional.of(saved(r.reservation(), r.time()));
            case StateRecord.ReservationDeleted r ->
                Optional.of(AccountingRecord.newBuilder()
                        .setReservation(ReservationAccountingRecord.newBuilder()
                                .setName(r.name())
                                .setTime(r.time())
                                .setDeleted(true)));
            default -> Optional.empty();
        };
    }

    static AccountingRecord.Builder saved(Reservation r, long time) {
        List<String> flags = new ArrayList<>();
        for (ReservationFlag f : ReservationFlag.values()) {
            if (r.has(f)) {
                flags.add(f.name());
            }
        }
        // Excluded users (Users=-a) name nobody the reservation is for: no association.
        List<String> users = r.usersExcluded() ? List.of() : r.users();
        return AccountingRecord.newBuilder()
                .setReservation(ReservationAccountingRecord.newBuilder()
                        .setId(r.id())
                        .setName(r.name())
                        .setTime(time)
                        .setStartTime(r.start())
                        .setEndTime(r.end())
                        .setNodes(r.nodes().isEmpty() ? "" : HostList.compressSorted(r.nodes()))
                        // As scontrol shows it: a reservation holds its cores (TRES=cpu=N).
                        .setTres(Tres.of(Map.of("cpu", (long) r.coresOnNodes())).format())
                        .setFlags(String.join(",", flags))
                        .addAllUsers(users)
                        .addAllAccounts(r.accounts()));
    }
}
