package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TestBatchEnvironment {
    private static final BatchEnvironment.JobFacts FACTS = new BatchEnvironment.JobFacts(
            7,
            "sluice",
            "node1",
            new BatchEnvironment.Layout("node[1-2]", 2, 2, 4, 0, "4(x2)", "1(x2)"),
            new BatchEnvironment.Memory(0, 0),
            new BatchEnvironment.Charge("all", "", ""),
            new BatchEnvironment.Submission("/home/alice", "login1", 1000, 100, "alice"));

    @Test
    void slurmVariablesAsSlurmNamesThem() {
        Map<String, String> env =
                BatchEnvironment.build(Map.of("HOME", "/home/alice", "SLURM_JOB_NAME", "wrap"), FACTS);
        assertThat(env)
                .containsEntry("SLURM_JOB_ID", "7")
                .containsEntry("SLURM_JOBID", "7")
                .containsEntry("SLURM_JOB_NAME", "wrap")
                .containsEntry("SLURM_JOB_NODELIST", "node[1-2]")
                .containsEntry("SLURM_NODELIST", "node[1-2]")
                .containsEntry("SLURM_NNODES", "2")
                .containsEntry("SLURM_JOB_NUM_NODES", "2")
                .containsEntry("SLURM_JOB_CPUS_PER_NODE", "4(x2)")
                .containsEntry("SLURM_TASKS_PER_NODE", "1(x2)")
                .containsEntry("SLURM_SUBMIT_DIR", "/home/alice")
                .containsEntry("SLURMD_NODENAME", "node1")
                .containsEntry("ENVIRONMENT", "BATCH")
                .containsEntry("HOME", "/home/alice");
        assertThat(env).doesNotContainKey("SLURM_CPUS_PER_TASK");
    }

    @Test
    void slurmVariablesWinOverExportedOnes() {
        Map<String, String> env = BatchEnvironment.build(Map.of("SLURM_JOB_ID", "999"), FACTS);
        assertThat(env).containsEntry("SLURM_JOB_ID", "7");
    }
}
