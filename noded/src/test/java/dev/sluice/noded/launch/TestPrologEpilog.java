package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestPrologEpilog {
    static final BatchJob LAUNCH = BatchJobBuilder.job(42)
            .layout(new BatchJob.Layout("lab", "node[1-2]", 2, 0, "", ""))
            .charge("gpu", "physics", "", "")
            .owner(1000, 100, "alice")
            .env("LD_PRELOAD", "/home/alice/evil.so")
            .build();

    @Test
    void thePrologSeesTheJobAndItsPhysicalGpusButNotTheUsersEnvironment(@TempDir Path dir) throws Exception {
        Map<String, String> env = PrologEpilog.environment(
                LAUNCH,
                "node1",
                PrologEpilog.PROLOG_CONTEXT,
                Map.of("CUDA_VISIBLE_DEVICES", "1,3", "SLURM_JOB_GPUS", "1,3", "SLURM_GPUS_ON_NODE", "2"));
        assertThat(env)
                .containsEntry("SLURM_JOB_ID", "42")
                .containsEntry("SLURM_JOB_USER", "alice")
                .containsEntry("SLURM_JOB_UID", "1000")
                .containsEntry("SLURM_JOB_GID", "100")
                .containsEntry("SLURM_JOB_PARTITION", "gpu")
                .containsEntry("SLURM_JOB_NODELIST", "node[1-2]")
                .containsEntry("SLURM_CLUSTER_NAME", "lab")
                .containsEntry("SLURMD_NODENAME", "node1")
                .containsEntry("SLURM_JOB_ACCOUNT", "physics")
                .containsEntry("SLURM_SCRIPT_CONTEXT", "prolog_slurmd")
                .containsEntry("CUDA_VISIBLE_DEVICES", "1,3")
                .containsEntry("SLURM_JOB_GPUS", "1,3")
                .doesNotContainKey("LD_PRELOAD")
                .doesNotContainKey("SLURM_GPUS_ON_NODE");

        // Run the wrapper for real: two programs, the environment as given, quoting intact.
        Path out = dir.resolve("seen");
        Path first = dir.resolve("first it's.sh");
        Files.writeString(
                first,
                "#!/bin/sh\necho \"$SLURM_JOB_USER $SLURM_SCRIPT_CONTEXT ${LD_PRELOAD:-none}\" > '" + out + "'\n");
        first.toFile().setExecutable(true);
        Path second = dir.resolve("second.sh");
        Files.writeString(second, "#!/bin/sh\necho second >> '" + out + "'\nexit 3\n");
        second.toFile().setExecutable(true);
        Path third = dir.resolve("third.sh");
        Files.writeString(third, "#!/bin/sh\necho third >> '" + out + "'\n");
        third.toFile().setExecutable(true);
        String wrapper = PrologEpilog.wrapper(List.of(first.toString(), second.toString(), third.toString()), env)
                .orElseThrow();
        Path file = dir.resolve("prolog");
        Files.writeString(file, wrapper);
        Process p = new ProcessBuilder("/bin/sh", file.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor()).as("the first failure is the result").isEqualTo(3);
        assertThat(Files.readAllLines(out)).containsExactly("alice prolog_slurmd none", "second");
    }

    @Test
    void noProgramsNoWrapper() {
        assertThat(PrologEpilog.wrapper(List.of(), Map.of())).isEmpty();
    }
}
