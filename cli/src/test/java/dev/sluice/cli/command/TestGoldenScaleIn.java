package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeInfo;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code scontrol show scalein}. Slurm has no such entity, so the golden file {@code scalein.txt}
 * is Sluice's own format, written by hand: scontrol's record layout (three-space indent, blank
 * line after each record, {@code -o} joins a record's lines), {@code State=} as {@code scontrol
 * show node} prints it, {@code FreeIn=} as {@code TimeLimit=} durations print ({@code 00:29:54},
 * {@code UNLIMITED}) and {@code EndTime=} as {@code scontrol show job} prints it ({@code Unknown}
 * for a job without limit); all taken from Slurm 22.05's scontrol output in the other golden
 * files. Cluster at 08:47:04: n1 runs jobs 1 (60 min) and 2 (30 min, also on n2), n4 a job
 * without limit, n3 is idle, n5 is idle and drained; job 3 is pending.
 */
class TestGoldenScaleIn {
    static List<NodeInfo> nodes() {
        return List.of(
                Fixtures.node("n1", 6821).setState("MIXED").setAllocCpus(2).build(),
                Fixtures.node("n2", 6822).setState("MIXED").setAllocCpus(1).build(),
                Fixtures.node("n3", 6823).build(),
                Fixtures.node("n4", 6824).setState("ALLOCATED").setAllocCpus(4).build(),
                Fixtures.node("n5", 6825).addFlags("DRAIN").setReason("spare").build());
    }

    static List<JobInfo> jobs() {
        JobInfo halfHour = Fixtures.running2Gpu().toBuilder()
                .setTimeLimitMinutes(30)
                .setEndTime(Fixtures.START + 1800)
                .build();
        JobInfo unlimited = Fixtures.job(6, Fixtures.wrapSpec(), JobState.RUNNING)
                .setTimeLimitMinutes(0xffffffff)
                .setStartTime(Fixtures.START)
                .setNodeList("n4")
                .build();
        return List.of(Fixtures.running1(), halfHour, unlimited, Fixtures.pending3());
    }

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_NODES -> Answers.nodes(nodes());
        case GET_JOBS -> Answers.jobs(jobs());
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private Output run(String... args) {
        return cli.runBothWays(new ScontrolCommand(), Fixtures.LATER_NOW, args);
    }

    @Test
    void ranksIdleNodesFirstThenBySoonestLimit() throws IOException {
        assertThat(run("show", "scalein")).isEqualTo(new Output(0, golden("scalein.txt"), ""));
    }

    @Test
    void oneLinerAndANodeListNarrowTheCandidates() {
        assertThat(run("-o", "show", "scalein", "n[4,1-2]"))
                .isEqualTo(new Output(
                        0,
                        "NodeName=n2 Rank=1 State=MIXED RunningJobs=1 FreeIn=00:29:54 EndTime=2026-11-29T09:16:58\n"
                                + "NodeName=n1 Rank=2 State=MIXED RunningJobs=2 FreeIn=00:59:54"
                                + " EndTime=2026-11-29T09:46:58\n"
                                + "NodeName=n4 Rank=3 State=ALLOCATED RunningJobs=1 FreeIn=UNLIMITED EndTime=Unknown\n",
                        ""));
    }

    @Test
    void unknownNodesAreReportedAsScontrolShowNodeDoes() {
        Output o = cli.run(Fixtures.LATER_NOW, new ScontrolCommand(), "show", "scalein", "n9");
        assertThat(o).isEqualTo(new Output(1, "Node n9 not found\n", ""));
    }
}
