package dev.sluice.ctld.rpc;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.control.ReservationControl;
import dev.sluice.ctld.control.ReservationSpec;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.loop.StateSaves;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.wire.ReservationWire;
import dev.sluice.protocol.v1.CreateReservationRequest;
import dev.sluice.protocol.v1.CreateReservationResponse;
import dev.sluice.protocol.v1.DeleteReservationRequest;
import dev.sluice.protocol.v1.DeleteReservationResponse;
import dev.sluice.protocol.v1.GetReservationsResponse;
import dev.sluice.protocol.v1.UpdateReservationRequest;
import dev.sluice.protocol.v1.UpdateReservationResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The wire side of advance reservations: a {@code ReservationSpec} from scontrol's message, what
 * the controller knows of users ({@code /etc/passwd}) and accounts (accounting's associations,
 * when it has any) for the checks, and {@code scontrol show reservation}'s answer.
 */
final class ReservationAnswers {
    private static final Path PASSWD = Path.of("/etc/passwd");

    private ReservationAnswers() {}

    static ReservationSpec spec(dev.sluice.protocol.v1.ReservationSpec s) {
        return ReservationSpec.builder(s.getName())
                .start(s.hasStartTime() ? s.getStartTime() : null)
                .end(s.hasEndTime() ? s.getEndTime() : null)
                .durationMinutes(s.hasDurationMinutes() ? Integer.toUnsignedLong(s.getDurationMinutes()) : null)
                .nodes(s.hasNodes() ? s.getNodes() : null)
                .nodeCount(s.hasNodeCount() ? s.getNodeCount() : null)
                .partition(s.hasPartition() ? s.getPartition() : null)
                .users(s.hasUsers() ? s.getUsers() : null)
                .accounts(s.hasAccounts() ? s.getAccounts() : null)
                .flags(s.getFlagsList())
                .coreCount(s.hasCoreCount() ? s.getCoreCount() : null)
                .coresPerNode(s.getCoreCountsList())
                .licenses(s.hasLicenses() ? s.getLicenses() : null)
                .change(new ReservationSpec.AccessChange(
                        new ReservationSpec.Access(
                                s.hasUsersAdded() ? s.getUsersAdded() : null,
                                s.hasAccountsAdded() ? s.getAccountsAdded() : null),
                        new ReservationSpec.Access(
                                s.hasUsersRemoved() ? s.getUsersRemoved() : null,
                                s.hasAccountsRemoved() ? s.getAccountsRemoved() : null)))
                .build();
    }

    static ReservationControl.Directory directory(PolicyView limits, Licenses licenses) {
        return new ReservationControl.Directory(
                ReservationAnswers::knownUser,
                account -> {
                    AccountingPolicy policy = limits.policy();
                    return policy.associations().isEmpty()
                            || policy.accountAssociation(account).isPresent();
                },
                licenses);
    }

    /** A user name (or uid) of this machine's password file, as slurmctld resolves Users=. */
    static boolean knownUser(String name) {
        try {
            for (String line : Files.readAllLines(PASSWD)) {
                String[] f = line.split(":", -1);
                if (f.length > 2 && (f[0].equals(name) || f[2].equals(name))) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    static CreateReservationResponse create(
            ControllerLoop loop, Caller caller, PolicyView limits, CreateReservationRequest request) {
        ReservationSpec spec = spec(request.getSpec());
        ReservationControl.Directory directory =
                directory(limits, loop.scheduler().config().select().licenses());
        String name = LoopAnswers.await(
                loop.submit((state, now) -> ReservationControl.create(state, caller, spec, directory, now)));
        return CreateReservationResponse.newBuilder().setName(name).build();
    }

    static UpdateReservationResponse update(
            ControllerLoop loop, Caller caller, PolicyView limits, UpdateReservationRequest request) {
        ReservationSpec spec = spec(request.getSpec());
        ReservationControl.Directory directory =
                directory(limits, loop.scheduler().config().select().licenses());
        LoopAnswers.await(loop.submit((state, now) -> ReservationControl.update(state, caller, spec, directory, now)));
        return UpdateReservationResponse.getDefaultInstance();
    }

    static DeleteReservationResponse delete(ControllerLoop loop, Caller caller, DeleteReservationRequest request) {
        String name = request.getName();
        LoopAnswers.await(loop.submit((state, now) -> ReservationControl.delete(state, caller, name, now)));
        return DeleteReservationResponse.getDefaultInstance();
    }

    /**
     * @param saves when slurmctld would have saved its state: a partial reservation lists its
     *     cores only after one (null: always)
     */
    static GetReservationsResponse list(ClusterImage image, long now, StateSaves saves) {
        List<Reservation> shown = image.reservations().shown();
        GetReservationsResponse.Builder out =
                GetReservationsResponse.newBuilder().setNow(now);
        for (Reservation r : shown) {
            out.addReservations(ReservationWire.toWire(r, saves == null || saves.saved(r.name(), now)));
        }
        return out.build();
    }
}
