package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.PartitionState;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdatePartitionRequest;
import dev.sluice.protocol.v1.UpdatePartitionResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code scontrol update PartitionName=...}: what scontrol sends and the messages of Slurm
 * 22.05's scontrol for the same lines (partition "nosuch" unknown to the controller).
 */
class TestScontrolPartitionUpdate {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> {
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

    private Output scontrol(String... args) {
        return cli.run(new ScontrolCommand(), args);
    }

    private UpdatePartitionRequest last() {
        return cli.controller()
                .requests()
                .get(cli.controller().requests().size() - 1)
                .getUpdatePartition();
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
        int before = cli.controller().requests().size();
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
        assertThat(cli.controller().requests()).hasSize(before);
    }
}
