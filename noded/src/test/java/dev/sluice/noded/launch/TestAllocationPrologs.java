package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
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
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        outbox = new Outbox(spool);
        prologs = new AllocationPrologs("n3", policy::get, outbox, spool.prologRuns());
    }

    private static BatchJob allocation(int restartCount) {
        return BatchJobBuilder.job(JOB)
                .layout(new BatchJob.Layout("c1", "n3", 1, 0, "", ""))
                .charge("debug", "", "", "")
                .restartCount(restartCount)
                .name("interactive")
                .env("SLURM_JOB_ID", "1")
                .owner(1234, 1234, "alice")
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

    private Path prologScript(String body) throws Exception {
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        policy.set(LaunchPolicy.scripts(List.of(prolog.toString()), List.of()).withPrologAtAllocation(true));
        return prolog;
    }

    /** A new daemon on the same spool, as after a restart, taking up what the last one left. */
    private Outbox restart() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        Outbox fresh = new Outbox(spool);
        prologs = new AllocationPrologs("n3", policy::get, fresh, spool.prologRuns());
        prologs.recover();
        return fresh;
    }

    private static List<PrologCompleteRequest> awaitTold(Outbox from) {
        List<PrologCompleteRequest> told = new CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            told.addAll(from.takePrologsDone());
            return !told.isEmpty();
        });
        return told;
    }

    @Test
    void aPrologStillRunningWhenTheDaemonRestartsIsNotRunAgainAndItsEndIsTold() throws Exception {
        Path runs = dir.resolve("runs.txt");
        Path go = dir.resolve("go");
        prologScript("echo ran >> " + runs + "\nwhile [ ! -e " + go + " ]; do sleep 0.05; done\nexit 0");
        prologs.run(allocation(0));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(runs));

        Outbox afterRestart = restart();
        // The restarted controller asks again; the Prolog still runs and is not started twice.
        prologs.run(allocation(0));
        Files.writeString(go, "");

        assertThat(awaitTold(afterRestart)).containsExactly(notice(0));
        assertThat(Files.readAllLines(runs)).containsExactly("ran");
    }

    @Test
    void aPrologThatEndedUntoldIsToldByTheNextDaemonAndOneToldIsNot() throws Exception {
        prologScript("exit 4");
        prologs.run(allocation(0));
        // Ended and posted, but the daemon stops before the controller hears of it.
        assertThat(awaitTold())
                .containsExactly(notice(0).toBuilder().setStatus(4).build());
        prologs.run(allocation(1));
        PrologCompleteRequest second = awaitTold().getFirst();
        outbox.prologDelivered(second);

        Outbox afterRestart = restart();

        assertThat(afterRestart.takePrologsDone())
                .containsExactly(notice(0).toBuilder().setStatus(4).build());
        prologs.run(allocation(1));
        assertThat(afterRestart.takePrologsDone()).isEmpty();
    }

    @Test
    void aPrologKilledWhileNoDaemonWatchedIsToldAsFailed() throws Exception {
        prologScript("sleep 600");
        prologs.run(allocation(0));
        Path runFile = dir.resolve("spool/prologs/" + JOB + ".0.run");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.exists(runFile) && !Files.readString(runFile).isBlank());
        ProcessHandle shell = ProcessHandle.of(
                        Long.parseLong(Files.readString(runFile).strip().split(" ")[0]))
                .orElseThrow();
        shell.descendants().forEach(ProcessHandle::destroyForcibly);
        shell.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !shell.isAlive());

        Outbox afterRestart = restart();

        // Its shell recorded no status: the controller hears of a failure and drains the node.
        assertThat(awaitTold(afterRestart)).singleElement().satisfies(n -> {
            assertThat(n.getJobId()).isEqualTo(JOB);
            assertThat(n.getStatus()).isNotZero();
        });
    }
}
