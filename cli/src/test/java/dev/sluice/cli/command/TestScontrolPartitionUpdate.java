package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.PartitionState;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdatePartitionRequest;
import dev.sluice.protocol.v1.UpdatePartitionResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scontrol update PartitionName=...}: what scontrol sends and the messages of Slurm
 * 22.05's scontrol for the same lines (partition "nosuch" unknown to the controller).
 */
class TestScontrolPartitionUpdate {
    @TempDir
    Path dir;

    private FakeController controller;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        controller = new FakeController(req -> {
            if (req.getUpdatePartition().getName().equals("nosuch")) {
                return ClientResponse.newBuilder()
                        .setError(SlurmError.newBuilder()
                                .setCode(ErrorCode.INVALID_PARTITION_NAME.number())
                                .setMessage(ErrorCode.INVALID_PARTITION_NAME.text()))
                        .build();
            }
            return ClientResponse.newBuilder()
                    .setUpdatePartition(UpdatePartitionResponse.getDefaultInstance())
                    .build();
        });
        env = confFor(dir, controller.port());
    }

    @AfterEach
    void stop() throws IOException {
        controller.close();
    }

    private Output scontrol(String... args) {
        return TestingInvocations.run(new ScontrolCommand(), invocation(dir, env, "", args));
    }

    private UpdatePartitionRequest last() {
        return controller.requests().get(controller.requests().size() - 1).getUpdatePartition();
    }

    @Test
    void fieldsTravelAsValuesAndKeysMayBeAbbreviated() {
        assertThat(scontrol("update", "PartitionName=gpu", "State=dr", "MaxTime=1:00:00", "MaxNodes=UNLIMITED"))
                .isEqualTo(new Output(0, "", ""));
        assertThat(last())
                .isEqualTo(UpdatePartitionRequest.newBuilder()
                        .setName("gpu")
                        .setState(PartitionState.PARTITION_STATE_DRAIN)
                        .setMaxTime(60)
                        .setMaxNodes(-1)
                        .build());
        assertThat(scontrol("update", "State=UP", "PartitionName=gpu")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getState()).isEqualTo(PartitionState.PARTITION_STATE_UP);
    }

    @Test
    void theControllersRefusalIsAnUpdateError() {
        assertThat(scontrol("update", "PartitionName=nosuch", "State=DOWN"))
                .isEqualTo(new Output(1, "", "slurm_update error: Invalid partition name specified\n"));
    }

    @Test
    void badInputIsRefusedBeforeAsking() {
        int before = controller.requests().size();
        assertThat(scontrol("update", "PartitionName=gpu", "State=FOO"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: error: Invalid input: State=FOO\n"
                                + "scontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE\n"));
        assertThat(scontrol("update", "PartitionName=gpu"))
                .isEqualTo(new Output(1, "", "scontrol: error: No changes specified\n"));
        assertThat(scontrol("update", "PartitionName=gpu", "Colour=blue"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: error: Update of this parameter is not supported: Colour=blue\n\n"
                                + "scontrol: error: Request aborted\n"));
        assertThat(controller.requests()).hasSize(before);
    }
}
