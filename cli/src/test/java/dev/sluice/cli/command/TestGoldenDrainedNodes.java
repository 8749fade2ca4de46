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
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sinfo and scontrol against drained, draining and allocated nodes in two partitions, compared
 * with real Slurm 22.05 (golden files {@code b-*.txt}). The real cluster was the one of
 * {@link Fixtures} plus
 *
 * <pre>
 *   PartitionName=verylongpartitionname Nodes=n[1-2] State=UP MaxTime=UNLIMITED
 *   sbatch -J onn2 -w n2 --wrap "sleep 900"; sbatch -J fulln3 -w n3 -n4 --wrap "sleep 900"
 *   scontrol update nodename=n2 state=drain reason="bad gpu"        # 09:04:54
 *   scontrol update nodename=n1 state=drain reason="maint window"   # 09:04:54
 * </pre>
 *
 * and every command ran at 09:04:55.
 */
class TestGoldenDrainedNodes {
    private static final Instant NOW = Instant.parse("2026-11-29T09:04:55Z");
    private static final long DRAINED = Instant.parse("2026-11-29T09:04:54Z").getEpochSecond();

    static List<NodeInfo> nodes() {
        long boot = Instant.parse("2026-11-29T08:16:50Z").getEpochSecond();
        long start1 = Instant.parse("2026-11-29T08:46:51Z").getEpochSecond();
        long busy1 = Instant.parse("2026-11-29T09:01:46Z").getEpochSecond();
        long busy = Instant.parse("2026-11-29T09:00:19Z").getEpochSecond();
        return List.of(
                base("n1", 6821, boot, start1, busy1)
                        .addPartitions("verylongpartitionname")
                        .addFlags("DRAIN")
                        .setReason("maint window")
                        .setReasonUser("root")
                        .setReasonTime(DRAINED)
                        .build(),
                base("n2", 6822, boot, start1 + 1, busy)
                        .addPartitions("verylongpartitionname")
                        .setState("MIXED")
                        .setAllocCpus(1)
                        .setAllocTres("cpu=1")
                        .addFlags("DRAIN")
                        .setReason("bad gpu")
                        .setReasonUser("root")
                        .setReasonTime(DRAINED)
                        .build(),
                base("n3", 6823, boot, start1 + 1, busy)
                        .setState("ALLOCATED")
                        .setAllocCpus(4)
                        .setAllocTres("cpu=4")
                        .build());
    }

    private static NodeInfo.Builder base(String name, int port, long boot, long slurmdStart, long lastBusy) {
        return Fixtures.node(name, port)
                .setBootTime(boot)
                .setSlurmdStartTime(slurmdStart)
                .setLastBusyTime(lastBusy)
                .setFreeMemoryMb(20081)
                .setCpuLoad(6.13);
    }

    static List<PartitionInfo> partitions() {
        return List.of(
                Fixtures.gpuPartition().build(),
                PartitionInfo.newBuilder()
                        .setName("verylongpartitionname")
                        .setNodes("n[1-2]")
                        .setMaxTimeMinutes(0xffffffff)
                        .setState(dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_UP)
                        .setTotalCpus(8)
                        .setTotalNodes(2)
                        .setPriorityJobFactor(1)
                        .setPriorityTier(1)
                        .build());
    }

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_NODES -> Answers.nodes(nodes());
        case GET_PARTITIONS -> Answers.partitions(partitions());
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private String stdout(Command command, String... args) {
        TestingInvocations.Output o = cli.runBothWays(command, NOW, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    @Test
    void sinfoGroupsAndOrdersByState() throws IOException {
        assertThat(stdout(new SinfoCommand())).isEqualTo(golden("b-sinfo.txt"));
        assertThat(stdout(new SinfoCommand(), "-N", "-l")).isEqualTo(golden("b-sinfo-Nl.txt"));
        assertThat(stdout(new SinfoCommand(), "-s")).isEqualTo(golden("b-sinfo-s.txt"));
        assertThat(stdout(new SinfoCommand(), "-o", "%N %t")).isEqualTo(golden("b-sinfo-o-Nt.txt"));
        assertThat(stdout(new SinfoCommand(), "-o", "%P %C %A %F %E %H %u %U")).isEqualTo(golden("b-sinfo-o-agg.txt"));
    }

    @Test
    void sinfoReasons() throws IOException {
        assertThat(stdout(new SinfoCommand(), "-R")).isEqualTo(golden("b-sinfo-R.txt"));
        assertThat(stdout(new SinfoCommand(), "-R", "-l")).isEqualTo(golden("b-sinfo-Rl.txt"));
    }

    @Test
    void sinfoFiltersKeepEmptyPartitions() throws IOException {
        assertThat(stdout(new SinfoCommand(), "-t", "drain")).isEqualTo(golden("b-sinfo-t-drain.txt"));
        assertThat(stdout(new SinfoCommand(), "-t", "down")).isEqualTo(golden("b-sinfo-t-down.txt"));
        assertThat(stdout(new SinfoCommand(), "-n", "n3")).isEqualTo(golden("b-sinfo-n-n3.txt"));
    }

    @Test
    void scontrolShowsDrainReasonsAndBothPartitions() throws IOException {
        assertThat(stdout(new ScontrolCommand(), "show", "node")).isEqualTo(golden("b-scontrol-nodes.txt"));
        assertThat(stdout(new ScontrolCommand(), "show", "partition")).isEqualTo(golden("b-scontrol-partitions.txt"));
    }

    @Test
    void scontrolShowTakesOneName() {
        TestingInvocations.Output o = cli.run(NOW, new ScontrolCommand(), "show", "node", "n1", "n2");
        assertThat(o).isEqualTo(new TestingInvocations.Output(1, "", "too many arguments for keyword:show\n"));
    }
}
