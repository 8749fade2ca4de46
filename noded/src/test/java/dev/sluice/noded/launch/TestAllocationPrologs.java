package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrologFlags=Alloc for salloc's allocations and a batch job's other nodes: the node's Prolog runs
 * at allocation (compat 247, 262), and a failed one is told with its status (compat 263, 264).
 */
class TestAllocationPrologs {
    private static final int JOB = 5151;

    @TempDir
    Path dir;

    private Outbox outbox;
    private final AtomicReference<LaunchPolicy> policy = new AtomicReference<>(LaunchPolicy.NONE);
    private AllocationPrologs prologs;

    @BeforeEach
    void start() throws Exception {
        outbox = new Outbox(new JobSpool(dir.resolve("spool")));
        prologs = new AllocationPrologs("n3", policy::get, outbox);
    }

    private static LaunchBatchJobRequest allocation(int restartCount) {
        return LaunchBatchJobRequest.newBuilder()
                .setJobId(JOB)
                .setClusterName("c1")
                .setNodeList("n3")
                .setPartition("debug")
                .setRestartCount(restartCount)
                .setSpec(JobSpec.newBuilder()
                        .setName("interactive")
                        .putEnvironment("SLURM_JOB_ID", com.google.protobuf.ByteString.copyFromUtf8("1"))
                        .setOwner(
                                Identity.newBuilder().setUid(1234).setGid(1234).setUserName("alice")))
                .build();
    }

    private List<PrologCompleteRequest> awaitTold() {
        List<PrologCompleteRequest> told = new CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            told.addAll(outbox.takePrologsDone());
            return !told.isEmpty();
        });
        return told;
    }

    private static PrologCompleteRequest notice(int restartCount) {
        return PrologCompleteRequest.newBuilder()
                .setNodeName("n3")
                .setJobId(JOB)
                .setRestartCount(restartCount)
                .build();
    }

    @Test
    void thePrologRunsWithSlurmsPrologEnvironmentAndTheControllerHearsWhenItIsDone() throws Exception {
        Path seen = dir.resolve("seen.txt");
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\nenv > " + seen + ".tmp && mv " + seen + ".tmp " + seen + "\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        policy.set(LaunchPolicy.scripts(List.of(prolog.toString()), List.of()).withPrologAtAllocation(true));

        prologs.run(allocation(2));

        assertThat(awaitTold()).containsExactly(notice(2));
        List<String> env = Files.readAllLines(seen);
        assertThat(env)
                .contains(
                        "SLURM_SCRIPT_CONTEXT=prolog_slurmd",
                        "SLURM_JOB_ID=" + JOB,
                        "SLURM_JOB_USER=alice",
                        "SLURMD_NODENAME=n3");
        // Root's script never sees what the user submitted with.
        assertThat(env).noneMatch(line -> line.equals("SLURM_JOB_ID=1"));
    }

    @Test
    void withNoPrologConfiguredTheControllerHearsAtOnce() throws Exception {
        prologs.run(allocation(0));
        assertThat(awaitTold()).containsExactly(notice(0));
    }

    @Test
    void aRunAskedForAgainAfterItsPrologIsDoneIsNotRunTwice() throws Exception {
        // A restarted controller asks again the nodes it has not heard from: this one's notice
        // may still be in the outbox. Without a Prolog configured the notice is posted at once.
        prologs.run(allocation(0));
        assertThat(outbox.takePrologsDone()).containsExactly(notice(0));
        prologs.run(allocation(0));
        assertThat(outbox.takePrologsDone()).isEmpty();
        // The job's next run is another.
        prologs.run(allocation(1));
        assertThat(outbox.takePrologsDone()).containsExactly(notice(1));
    }

    @Test
    void aPrologThatFailsIsToldWithItsStatusSoThatTheControllerDrainsTheNode() throws Exception {
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\nexit 3\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        policy.set(LaunchPolicy.scripts(List.of(prolog.toString()), List.of()).withPrologAtAllocation(true));

        prologs.run(allocation(1));

        assertThat(awaitTold())
                .containsExactly(notice(1).toBuilder().setStatus(3).build());
    }
}
