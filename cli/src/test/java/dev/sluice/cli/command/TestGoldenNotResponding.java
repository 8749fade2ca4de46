package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.sinfo.SinfoCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.NodeInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes whose node daemon stopped answering, against real Slurm 22.05 (golden files
 * {@code d-*.txt}): two nodes, {@code SlurmdTimeout=10}, a job on n2, both slurmd killed at
 * 09:27:09; {@code scontrol update nodename=n1 state=drain reason=test} at 09:27:37.
 */
class TestGoldenNotResponding {
    private List<NodeInfo> nodes;

    private static long at(String time) {
        return Instant.parse("2026-11-29T" + time + "Z").getEpochSecond();
    }

    private static NodeInfo.Builder node(String name, int port, String boot, String lastBusy) {
        return Fixtures.node(name, port)
                .setBootTime(at(boot))
                .setSlurmdStartTime(at("09:27:02"))
                .setLastBusyTime(at(lastBusy))
                .setFreeMemoryMb(16200)
                .setCpuLoad(14.03);
    }

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_NODES -> Answers.nodes(nodes);
        case GET_PARTITIONS ->
            ClientResponse.newBuilder()
                    .setGetPartitions(GetPartitionsResponse.newBuilder()
                            .addPartitions(Fixtures.gpuPartition()
                                    .setNodes("n[1-2]")
                                    .setTotalNodes(2)
                                    .setTotalCpus(8)))
                    .build();
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private String stdout(Instant now, Command command, String... args) {
        TestingInvocations.Output o = cli.runBothWays(command, now, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    @Test
    void notRespondingNodesCarryAStar() {
        // sinfo at 09:27:34, before the controller marked them down
        nodes = List.of(
                node("n1", 6931, "08:16:50", "09:27:02")
                        .addFlags("NOT_RESPONDING")
                        .build(),
                node("n2", 6932, "08:16:49", "09:27:02")
                        .setState("MIXED")
                        .setAllocCpus(1)
                        .addFlags("NOT_RESPONDING")
                        .build());
        assertThat(stdout(Instant.parse("2026-11-29T09:27:34Z"), new SinfoCommand()))
                .isEqualTo("""
                        PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
                        gpu*         up    1:00:00      1   mix* n2
                        gpu*         up    1:00:00      1  idle* n1
                        """);
    }

    @Test
    void downAndDrainedWhileNotResponding() throws IOException {
        // sinfo; sinfo -R; sinfo -N -l; sinfo -o "%F %C %A"; scontrol show node (09:28:15)
        nodes = List.of(
                node("n1", 6931, "08:16:50", "09:27:02")
                        .setState("DOWN")
                        .addFlags("DRAIN")
                        .addFlags("NOT_RESPONDING")
                        .setReason("test")
                        .setReasonUser("root")
                        .setReasonTime(at("09:27:37"))
                        .build(),
                node("n2", 6932, "08:16:49", "09:27:35")
                        .setState("DOWN")
                        .addFlags("NOT_RESPONDING")
                        .setReason("Not responding")
                        .setReasonUser("root")
                        .setReasonTime(at("09:27:35"))
                        .build());
        Instant now = Instant.parse("2026-11-29T09:28:15Z");
        assertThat(stdout(now, new SinfoCommand())).isEqualTo(golden("d-sinfo.txt"));
        assertThat(stdout(now, new SinfoCommand(), "-R")).isEqualTo(golden("d-sinfo-R.txt"));
        assertThat(stdout(now, new SinfoCommand(), "-N", "-l")).isEqualTo(golden("d-sinfo-Nl.txt"));
        assertThat(stdout(now, new SinfoCommand(), "-o", "%F %C %A")).isEqualTo(golden("d-sinfo-agg.txt"));
        assertThat(stdout(now, new ScontrolCommand(), "show", "node")).isEqualTo(golden("d-scontrol-nodes.txt"));
        // sinfo -S "-N"; sinfo -S Q (an unknown letter is ignored, exit 0), same cluster
        assertThat(stdout(now, new SinfoCommand(), "-S", "-N")).isEqualTo("""
                        PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
                        gpu*         up    1:00:00      1  down* n2
                        gpu*         up    1:00:00      1 drain* n1
                        """);
        assertThat(stdout(now, new SinfoCommand(), "-S", "Q")).isEqualTo(golden("d-sinfo.txt"));
    }
}
