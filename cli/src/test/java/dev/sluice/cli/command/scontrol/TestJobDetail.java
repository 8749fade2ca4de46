package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `scontrol show job -d`'s per-node lines; expected values are Slurm 22.05's on the oracle
 * (/work/shared/tools/real-slurm, compat/conf's cluster, 2026-12-04).
 */
class TestJobDetail {
    private static NodeGres node(String name, List<Integer> cpus, GresGrant... grants) {
        return NodeGres.newBuilder()
                .setNode(name)
                .addAllCpuIds(cpus)
                .addAllGrants(List.of(grants))
                .build();
    }

    private static GresGrant gres(String name, long count, Integer... idx) {
        return GresGrant.newBuilder()
                .setName(name)
                .setCount(count)
                .addAllIndices(List.of(idx))
                .build();
    }

    private static JobInfo job(JobState state, NodeGres... nodes) {
        return JobInfo.newBuilder()
                .setState(state)
                .addAllNodeGres(List.of(nodes))
                .build();
    }

    @Test
    void gpusPerNode() {
        assertThat(JobDetail.lines(job(
                        JobState.RUNNING,
                        node("n1", List.of(0, 1), gres("gpu", 1, 0)),
                        node("n2", List.of(0), gres("gpu", 1, 0)))))
                .containsExactly(
                        "JOB_GRES=gpu:2",
                        "  Nodes=n1 CPU_IDs=0-1 Mem=0 GRES=gpu:1(IDX:0)",
                        "  Nodes=n2 CPU_IDs=0 Mem=0 GRES=gpu:1(IDX:0)");
    }

    @Test
    void nodesHoldingTheSameAreOneLine() {
        assertThat(JobDetail.lines(job(
                        JobState.RUNNING,
                        node("n1", List.of(0), gres("gpu", 1, 0)),
                        node("n2", List.of(0), gres("gpu", 1, 0)))))
                .containsExactly("JOB_GRES=gpu:2", "  Nodes=n[1-2] CPU_IDs=0 Mem=0 GRES=gpu:1(IDX:0)");
        assertThat(JobDetail.lines(job(JobState.RUNNING, node("n1", List.of(1)), node("n2", List.of(1)))))
                .containsExactly("JOB_GRES=(null)", "  Nodes=n[1-2] CPU_IDs=1 Mem=0 GRES=");
    }

    @Test
    void sharesAndMps() {
        assertThat(JobDetail.lines(job(JobState.RUNNING, node("n2", List.of(0), gres("shard", 3, 0)))))
                .containsExactly("JOB_GRES=shard:3", "  Nodes=n2 CPU_IDs=0 Mem=0 GRES=shard:3(IDX:0)");
        assertThat(JobDetail.lines(job(JobState.RUNNING, node("n2", List.of(1), gres("mps", 50, 0)))))
                .containsExactly("JOB_GRES=mps:50", "  Nodes=n2 CPU_IDs=1 Mem=0 GRES=mps(CNT:50)");
    }

    @Test
    void noGresAndEndedJobs() {
        assertThat(JobDetail.lines(job(JobState.RUNNING, node("n1", List.of(2, 3)), node("n2", List.of(2)))))
                .containsExactly(
                        "JOB_GRES=(null)", "  Nodes=n1 CPU_IDs=2-3 Mem=0 GRES=", "  Nodes=n2 CPU_IDs=2 Mem=0 GRES=");
        // An ended job keeps its JOB_GRES and CPUs but no longer shows the devices it had.
        assertThat(JobDetail.lines(job(
                        JobState.COMPLETED,
                        node("n1", List.of(0, 1), gres("gpu", 1, 0)),
                        node("n2", List.of(0), gres("gpu", 1, 0)))))
                .containsExactly(
                        "JOB_GRES=gpu:2", "  Nodes=n1 CPU_IDs=0-1 Mem=0 GRES=", "  Nodes=n2 CPU_IDs=0 Mem=0 GRES=");
    }

    @Test
    void aPendingJobHasNoDetailLines() {
        assertThat(JobDetail.lines(job(JobState.PENDING))).isEmpty();
    }
}
