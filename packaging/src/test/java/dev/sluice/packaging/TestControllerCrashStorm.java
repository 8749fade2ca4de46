package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ControllerAddress;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarantee: a submission the controller acknowledged with a job id survives any number of
 * {@code kill -9}s of the controller, with its full request, and no job id is ever handed out
 * twice; jobs running on nodes keep running through the crashes and end with their real exit
 * codes. Several clients submit while the controller is killed at seeded random moments.
 *
 * <p>The CI variant is sized by default; the long run ({@code scripts/fault-storm}) raises
 * {@code sluice.storm.submissions}, {@code sluice.storm.kills} and picks {@code sluice.storm.seed}.
 */
class TestControllerCrashStorm {
    static final int SUBMISSIONS = Integer.getInteger("sluice.storm.submissions", 1000);
    static final int KILLS = Integer.getInteger("sluice.storm.kills", 3);
    static final long SEED = Long.getLong("sluice.storm.seed", 20261129L);
    static final int CLIENTS = Integer.getInteger("sluice.storm.clients", 4);

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 2, 2, 1);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A client that signs as root with the cluster key, as root's commands do. */
    private static ControllerClient client() {
        Caller root = new Caller(0, 0, "root", "localhost");
        Path conf = cluster.layout().slurmConfPath();
        try {
            var auth = dev.sluice.cli.client.ClientAuth.discover(
                    Map.of(),
                    conf,
                    dev.sluice.common.conf.SlurmConfReader.read(conf),
                    root,
                    java.time.Clock.systemUTC(),
                    true);
            return new ControllerClient(
                    List.of(new ControllerAddress(
                            "ctld", "127.0.0.1", cluster.layout().ctldPort())),
                    root,
                    auth);
        } catch (dev.sluice.common.conf.ConfigException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JobSpec.Builder spec(String name, String script) {
        return JobSpec.newBuilder()
                .setName(name)
                .setComment("request of " + name)
                .setScript(com.google.protobuf.ByteString.copyFromUtf8(script))
                .setWorkDir(cluster.workDir().toString())
                .putEnvironment("PATH", com.google.protobuf.ByteString.copyFromUtf8("/usr/bin:/bin"))
                .putEnvironment("STORM_MARK", com.google.protobuf.ByteString.copyFromUtf8(name))
                .setMinNodes(1)
                .setNumTasks(1)
                .setTimeLimitMinutes(0xfffffffe)
                .setOwner(Identity.newBuilder().setUid(0).setGid(0).setUserName("root"));
    }

    private static int submit(ControllerClient client, JobSpec.Builder spec) throws ControllerException {
        return client.call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder().setSpec(spec)))
                .getSubmitBatchJob()
                .getJobId();
    }

    private static Map<Integer, JobInfo> jobs() throws ControllerException {
        return jobs(List.of());
    }

    /** The jobs asked for with their scripts and environments, or every job without. */
    private static Map<Integer, JobInfo> jobs(java.util.Collection<Integer> ids) throws ControllerException {
        return client()
                .call(ClientRequest.newBuilder()
                        .setGetJobs(
                                GetJobsRequest.newBuilder().addAllJobIds(ids).setIncludeScript(true)))
                .getGetJobs()
                .getJobsList()
                .stream()
                .collect(Collectors.toMap(JobInfo::getJobId, Function.identity()));
    }

    private static boolean answers() {
        try {
            jobs();
            return true;
        } catch (ControllerException e) {
            return false;
        }
    }

    @Test
    void acknowledgedSubmissionsSurviveControllerCrashes() throws Exception {
        Path go = cluster.workDir().resolve("go");
        int ok = submit(client(), spec("runner-ok", "#!/bin/sh\nwhile [ ! -e go ]; do sleep 0.1; done\nexit 0\n"));
        int bad = submit(client(), spec("runner-3", "#!/bin/sh\nwhile [ ! -e go ]; do sleep 0.1; done\nexit 3\n"));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> jobs().get(ok).getState() == JobState.RUNNING
                        && jobs().get(bad).getState() == JobState.RUNNING);

        // Every id a client was told, with what it asked for; a duplicate id fails at once.
        Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
        List<String> reused = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            running.add(clients.submit(() -> {
                ControllerClient client = client();
                for (int i = next.getAndIncrement(); i < SUBMISSIONS; i = next.getAndIncrement()) {
                    String name = "storm-" + i;
                    try {
                        int id = submit(
                                client,
                                spec(name, "#!/bin/sh\necho " + name + "\n").setHold(true));
                        String before = acknowledged.putIfAbsent(id, name);
                        if (before != null) {
                            synchronized (reused) {
                                reused.add(id + " given to " + before + " and " + name);
                            }
                        }
                    } catch (ControllerException e) {
                        // Not acknowledged: the controller is down or died mid-call. Such a
                        // submission may or may not exist; only acknowledged ones are promised.
                        refused.incrementAndGet();
                        await().atMost(Duration.ofSeconds(60))
                                .pollInterval(Duration.ofMillis(50))
                                .until(TestControllerCrashStorm::answers);
                    }
                }
                return null;
            }));
        }

        // Kill at seeded random points of the storm's progress, one in each stretch of it.
        Random random = new Random(SEED);
        int stretch = SUBMISSIONS / (KILLS + 1);
        int kills = 0;
        while (kills < KILLS) {
            int killAt = (kills + 1) * stretch - stretch / 2 + random.nextInt(Math.max(1, stretch / 2));
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(2))
                    .until(() -> acknowledged.size() >= killAt);
            cluster.crashController();
            kills++;
            cluster.startController();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(TestControllerCrashStorm::answers);
        }
        for (Future<?> f : running) {
            f.get();
        }
        clients.shutdown();

        assertThat(reused).as("job ids handed out twice").isEmpty();
        Map<Integer, JobInfo> listed = jobs();
        List<String> lost = new ArrayList<>();
        acknowledged.forEach((id, name) -> {
            if (!listed.containsKey(id)) {
                lost.add(id + "=" + name + " missing");
            }
        });
        assertThat(lost).as("acknowledged submissions lost").isEmpty();
        Map<Integer, JobInfo> after = jobs(acknowledged.keySet());
        acknowledged.forEach((id, name) -> {
            JobInfo job = after.get(id);
            if (job == null
                    || !job.getSpec().getName().equals(name)
                    || !job.getSpec().getComment().equals("request of " + name)
                    || !job.getSpec().getScript().toStringUtf8().equals("#!/bin/sh\necho " + name + "\n")
                    || !com.google.protobuf.ByteString.copyFromUtf8(name)
                            .equals(job.getSpec().getEnvironmentMap().get("STORM_MARK"))) {
                lost.add(id + "=" + name
                        + (job == null
                                ? " missing"
                                : " altered: " + job.getSpec().getName()));
            }
        });
        assertThat(lost).as("acknowledged submissions lost or altered").isEmpty();
        int maxAcknowledged =
                acknowledged.keySet().stream().max(Integer::compare).orElse(0);
        int fresh = submit(client(), spec("after-storm", "#!/bin/sh\ntrue\n").setHold(true));
        assertThat(fresh).as("a new id after the storm").isGreaterThan(maxAcknowledged);

        Files.writeString(go, "");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> jobs().get(ok).getState() == JobState.COMPLETED
                        && jobs().get(bad).getState() == JobState.FAILED);
        assertThat(jobs().get(bad).getExitStatus() >> 8).isEqualTo(3);
        System.out.printf(
                "controller crash storm: seed=%d kills=%d submissions=%d acknowledged=%d refused=%d lost=0 reused=0%n",
                SEED, kills, SUBMISSIONS, acknowledged.size(), refused.get());
    }
}
