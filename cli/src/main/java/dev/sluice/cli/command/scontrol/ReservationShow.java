package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.view.ReservationText;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetReservationsRequest;
import dev.sluice.protocol.v1.GetReservationsResponse;
import dev.sluice.protocol.v1.ReservationInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * {@code scontrol show reservation [NAME]}: every reservation, or the one named ({@code
 * Reservation NAME not found}, status 1, for a name none has); {@code No reservations in the
 * system} when there is none.
 */
final class ReservationShow {
    private ReservationShow() {}

    static int run(Invocation inv, String name, boolean oneLiner, PrintStream out, PrintStream err) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, ScontrolCommand.PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        GetReservationsResponse answer;
        try {
            answer = client.get()
                    .call(ClientRequest.newBuilder().setGetReservations(GetReservationsRequest.getDefaultInstance()))
                    .getGetReservations();
        } catch (ControllerException e) {
            err.println("slurm_load_reservations error: " + e.getMessage());
            return 1;
        }
        List<ReservationInfo> all = answer.getReservationsList();
        if (all.isEmpty() && name == null) {
            out.println(ReservationText.NONE);
            return 0;
        }
        List<ReservationInfo> shown = name == null
                ? all
                : all.stream().filter(r -> r.getName().equals(name)).toList();
        if (shown.isEmpty()) {
            out.println("Reservation " + name + " not found");
            return 1;
        }
        for (ReservationInfo r : shown) {
            out.print(ReservationText.record(r, answer.getNow(), inv.clock().getZone(), oneLiner));
        }
        return 0;
    }
}
