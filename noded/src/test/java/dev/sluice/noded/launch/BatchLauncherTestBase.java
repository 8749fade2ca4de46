package dev.sluice.noded.launch;

import static org.awaitility.Awaitility.await;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.JobCompleteRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the batch launcher's tests start from: node n7 with its spool and outbox in a temporary
 * directory, a working directory for the jobs, the launch policy a test may change, and the
 * launcher each test class builds ({@link #newLauncher}); after each test, every job still
 * running is cancelled and the launcher closed.
 */
abstract class BatchLauncherTestBase {
    @TempDir
    Path dir;

    final AtomicReference<LaunchPolicy> policy = new AtomicReference<>(LaunchPolicy.NONE);
    JobSpool spool;
    Outbox outbox;
    Path work;
    BatchLauncher launcher;

    /** The clock the launcher counts time limits on. */
    abstract InstantSource clock();

    /** The launcher under test, on {@code setup} (node n7, the spool, {@link #clock}, the policy). */
    abstract BatchLauncher newLauncher(LaunchSetup setup, Outbox outbox) throws IOException;

    /** Launches {@code job} as the node daemon does, with the launch record the spool keeps. */
    void launch(BatchJob job) throws IOException {
        launcher.launch(job, JobSpool.launchRecord(job));
    }

    @BeforeEach
    void start() throws Exception {
        spool = new JobSpool(dir.resolve("spool"));
        outbox = new Outbox(spool);
        work = Files.createDirectories(dir.resolve("work"));
        launcher = newLauncher(
                LaunchSetup.builder()
                        .nodeName("n7")
                        .spool(spool)
                        .daemonUid(uid())
                        .clock(clock())
                        .policy(policy::get)
                        .build(),
                outbox);
    }

    @AfterEach
    void stop() {
        for (int id : launcher.runningJobIds()) {
            launcher.terminate(id, dev.sluice.common.slurm.JobState.CANCELLED, -1);
        }
        launcher.close();
    }

    static int uid() {
        return (int) new com.sun.security.auth.module.UnixSystem().getUid();
    }

    static int gid() {
        return (int) new com.sun.security.auth.module.UnixSystem().getGid();
    }

    /** A job named wrap running {@code script} under /bin/sh in {@link #work}, out-%j.txt and err-%j.txt there. */
    BatchJobBuilder job(int jobId, String script) {
        return BatchJobBuilder.job(jobId)
                .name("wrap")
                .script("#!/bin/sh\n" + script + "\n")
                .files(
                        work.toString(),
                        work.resolve("out-%j.txt").toString(),
                        work.resolve("err-%j.txt").toString())
                .env("PATH", "/usr/bin:/bin");
    }

    /** The end of {@code job} as the outbox holds it for the controller. */
    JobCompleteRequest awaitReport(int job) {
        AtomicReference<JobCompleteRequest> report = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            outbox.reports().stream()
                    .filter(r -> r.getJobId() == job)
                    .findFirst()
                    .ifPresent(report::set);
            return report.get() != null;
        });
        return report.get();
    }

    /** A file of the working directory. */
    String file(String name) throws Exception {
        return Files.readString(work.resolve(name), StandardCharsets.UTF_8);
    }
}
