package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.CreateReservationResponse;
import dev.sluice.protocol.v1.ReservationSpec;
import dev.sluice.protocol.v1.UpdateReservationResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How scontrol reads a reservation's fields before it asks the controller (compat 256, 258). */
class TestScontrolReservationLine {
    @TempDir
    Path dir;

    private FakeController controller;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        controller = new FakeController(req -> switch (req.getBodyCase()) {
            case CREATE_RESERVATION ->
                ClientResponse.newBuilder()
                        .setCreateReservation(CreateReservationResponse.newBuilder()
                                .setName(req.getCreateReservation().getSpec().getName()))
                        .build();
            case UPDATE_RESERVATION ->
                ClientResponse.newBuilder()
                        .setUpdateReservation(UpdateReservationResponse.getDefaultInstance())
                        .build();
            default -> throw new AssertionError("unexpected " + req.getBodyCase());
        });
        env = confFor(dir, controller.port());
    }

    @AfterEach
    void stop() throws IOException {
        controller.close();
    }

    /** {@code scontrol create res} of root's reservation r, now for an hour, with {@code fields}. */
    private Output createRes(String... fields) {
        List<String> args = new ArrayList<>(
                List.of("create", "res", "ReservationName=r", "StartTime=now", "Duration=60", "Users=root"));
        args.addAll(List.of(fields));
        return TestingInvocations.run(new ScontrolCommand(), invocation(dir, env, "", args.toArray(String[]::new)));
    }

    private Output create(String tres) {
        return createRes("TRES=" + tres);
    }

    private ReservationSpec sent() {
        return controller.requests().getLast().getCreateReservation().getSpec();
    }

    @Test
    void tresTakesCpusAsCoresAndNodesAsANodeCount() {
        assertThat(create("cpu=2")).isEqualTo(new Output(0, "Reservation created: r\n", ""));
        assertThat(sent().getCoreCount()).isEqualTo(2);
        assertThat(sent().hasNodeCount()).isFalse();
        assertThat(create("node=1").exitCode()).isZero();
        assertThat(sent().getNodeCount()).isEqualTo(1);
        assertThat(sent().hasCoreCount()).isFalse();
    }

    private Output createWith(String field) {
        return createRes("Nodes=n[1-2]", field);
    }

    @Test
    void licensesAloneAreEnoughToAskAndTravelAsTyped() {
        // Slurm 22.05's scontrol asks the controller, which wants ANY_NODES too (compat 283).
        assertThat(createRes("Licenses=foo:2,bar", "Flags=ANY_NODES"))
                .isEqualTo(new Output(0, "Reservation created: r\n", ""));
        assertThat(sent().getLicenses()).isEqualTo("foo:2,bar");
        assertThat(sent().getFlagsList()).containsExactly("ANY_NODES");
        createRes("Lic=bar");
        assertThat(sent().getLicenses()).isEqualTo("bar");
        assertThat(createRes("Licenses=").exitCode()).isEqualTo(1);
        assertThat(createRes("Flags=ANY_NODES").exitCode()).isEqualTo(1);
    }

    @Test
    void coreCntTakesACountPerNode() {
        // Slurm 22.05 takes CoreCnt=2,1 (compat 258): the sum, and each node's count in order.
        assertThat(createWith("CoreCnt=2,1")).isEqualTo(new Output(0, "Reservation created: r\n", ""));
        assertThat(sent().getCoreCount()).isEqualTo(3);
        assertThat(sent().getCoreCountsList()).containsExactly(2, 1);
        createWith("CoreCnt=3");
        assertThat(sent().getCoreCount()).isEqualTo(3);
        assertThat(sent().getCoreCountsList()).isEmpty();
        int asked = controller.requests().size();
        assertThat(createWith("CoreCnt=2,x"))
                .isEqualTo(new Output(
                        1, "", "scontrol: error: Invalid core count CoreCnt=2,x.  No reservation created.\n"));
        assertThat(controller.requests()).hasSize(asked);
    }

    @Test
    void eachBadTresItemHasSlurmsOwnWordsAndAsksNothing() {
        // Real scontrol 22.05 on each line (compat 258).
        assertThat(create("gres/gpu=1"))
                .isEqualTo(
                        new Output(1, "", "scontrol: error: TRES type 'gres/gpu' not supported with reservations\n"));
        assertThat(create("gres/gpu:1")).isEqualTo(new Output(1, "", "scontrol: error: invalid TRES 'gres/gpu:1'\n"));
        assertThat(create("cpu").err()).isEqualTo("scontrol: error: invalid TRES 'cpu'\n");
        assertThat(create("cpu=abc").err()).isEqualTo("scontrol: error: invalid TRES cpu value 'abc'\n");
        assertThat(create("cpu=2,gres/gpu=1").err())
                .isEqualTo("scontrol: error: TRES type 'gres/gpu' not supported with reservations\n");
        assertThat(create("mem=100").err())
                .isEqualTo("scontrol: error: TRES type 'mem' not supported with reservations\n");
        assertThat(controller.requests()).isEmpty();
    }

    private Output update(String... fields) {
        String[] args = new String[fields.length + 2];
        args[0] = "update";
        args[1] = "ReservationName=r";
        System.arraycopy(fields, 0, args, 2, fields.length);
        return TestingInvocations.run(new ScontrolCommand(), invocation(dir, env, "", args));
    }

    private ReservationSpec updated() {
        return controller.requests().getLast().getUpdateReservation().getSpec();
    }

    @Test
    void plusAndMinusAddAndTakeAwayUsersAccountsAndFlags() {
        assertThat(update("Users+=alice,bob")).isEqualTo(new Output(0, "Reservation updated.\n", ""));
        assertThat(updated().getUsersAdded()).isEqualTo("alice,bob");
        assertThat(updated().hasUsers()).isFalse();
        update("Users-=root", "Accounts+=physics");
        assertThat(updated().getUsersRemoved()).isEqualTo("root");
        assertThat(updated().getAccountsAdded()).isEqualTo("physics");
        update("Accounts-=physics");
        assertThat(updated().getAccountsRemoved()).isEqualTo("physics");
        update("Flags+=IGNORE_JOBS,WEEKLY");
        assertThat(updated().getFlagsList()).containsExactly("IGNORE_JOBS", "WEEKLY");
        update("Flags-=WEEKLY,ignore_jobs");
        assertThat(updated().getFlagsList()).containsExactly("-WEEKLY", "-IGNORE_JOBS");
    }

    @Test
    void whatScontrolRefusesInAnUpdateIsWordedAsSlurms() {
        // Real scontrol 22.05 on each line (compat 256).
        assertThat(update("Flags+=BOGUS"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: error: Error parsing flags +BOGUS.  No reservation update.\n"
                                + "slurm_update error: No error\n"));
        assertThat(update("Flags-=OVERLAP").err())
                .isEqualTo("scontrol: error: Error parsing flags -OVERLAP.  No reservation update.\n"
                        + "slurm_update error: No error\n");
        assertThat(update("Users-=root", "Users+=alice").err())
                .isEqualTo("scontrol: error: Parameter Users+=alice specified more than once\n"
                        + "slurm_update error: No error\n");
        assertThat(update("NodeCnt=abc").err())
                .isEqualTo("scontrol: error: Invalid node count abc\nslurm_update error: No error\n");
        assertThat(update("StartTime=bogus").err())
                .endsWith("scontrol: error: Invalid start time StartTime=bogus.  No reservation update.\n"
                        + "slurm_update error: Invalid time specified\n");
        assertThat(controller.requests()).isEmpty();
    }
}
