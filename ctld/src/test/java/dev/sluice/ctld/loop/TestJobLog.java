package dev.sluice.ctld.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.BatchEnds;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.persistence.Recovery;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's job lines, from a running loop: the texts are those real slurmctld 22.05
 * wrote for the same events (its slurmctld.log on this machine, docs/operations.md).
 */
class TestJobLog {
    private static final Scheduler.SelectDefaults DEFAULTS = Scheduler.SelectDefaults.DEFAULT;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(1_000_000));

    @TempDir
    Path dir;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final JobControl jobs = JobControl.builder(DEFAULTS).build();
    private final NodeControl nodes = new NodeControl(300, NodePolicy.DEFAULT);
    private ControllerLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    private void start() throws Exception {
        ClusterState state = ClusterFixture.aCluster()
                .nodes(2)
                .partitions(names -> List.of(Builders.aPartition("gpu", names)))
                .configured();
        Journal journal = Recovery.recover(dir, state, false).journal();
        loop = ControllerLoop.builder(state, journal, CLOCK)
                .scheduler(new Scheduler(SchedulerConfig.defaults(DEFAULTS)))
                .effects((e, image) -> {})
                .fatal(t -> {})
                .observer(new JobLog(lines::add))
                .build();
        loop.start();
        for (String n : List.of("n1", "n2")) {
            get(loop.submit((s, now) -> nodes.register(
                    s,
                    new NodeControl.Registration(
                            n,
                            new NodeEndpoint(n, "127.0.0.1", 7000),
                            new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                            new DaemonReport(1, "v", NodeFacts.NONE),
                            false,
                            Set.of(),
                            Optional.empty()),
                    now)));
        }
    }

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    private int submit(dev.sluice.ctld.state.JobRequest request) throws Exception {
        int id = get(loop.submit((s, now) -> jobs.submit(s, request, now)));
        // The pass after the answer starts it.
        get(loop.submit((s, now) -> ControlResult.answer(0)));
        return id;
    }

    private void end(String node, int id, int status, JobState state) throws Exception {
        get(loop.submit((s, now) -> BatchEnds.complete(s, node, id, status, state, now)));
    }

    @Test
    void startsAndEndsAreLoggedInSlurmctldsWords() throws Exception {
        start();
        int ok = submit(Builders.aJob().partition("gpu").build());
        int two = submit(Builders.aJob().partition("gpu").nodes(2).build());
        assertThat(lines)
                .containsExactly(
                        "sched: Allocate JobId=" + ok + " NodeList=n1 #CPUs=1 Partition=gpu",
                        "sched: Allocate JobId=" + two + " NodeList=n[1-2] #CPUs=2 Partition=gpu");
        lines.clear();
        end("n1", ok, 3 << 8, null);
        end("n1", two, 9, null);
        assertThat(lines)
                .containsExactly(
                        "_job_complete: JobId=" + ok + " WEXITSTATUS 3",
                        "_job_complete: JobId=" + ok + " done",
                        "_job_complete: JobId=" + two + " WTERMSIG 9",
                        "_job_complete: JobId=" + two + " done");
    }

    @Test
    void aTimeLimitHasSlurmctldsLineAndACancelNone() throws Exception {
        start();
        int slow = submit(Builders.aJob().partition("gpu").build());
        int cancelled = submit(Builders.aJob().partition("gpu").build());
        lines.clear();
        end("n1", slow, 15, JobState.TIMEOUT);
        get(loop.submit((s, now) -> ControlResult.<Void>of(
                List.of(StateRecord.JobEnded.unrequested(cancelled, JobState.CANCELLED, 15, JobReason.NONE, now)),
                List.of(),
                null)));
        assertThat(lines).containsExactly("Time limit exhausted for JobId=" + slow);
    }

    @Test
    void arrayTasksNameTheArrayTheTaskAndTheirOwnId() throws Exception {
        start();
        int array = submit(Builders.aJob().partition("gpu").array("1-2").build());
        // Two tasks start in one pass: the first takes a new id, the last keeps the array's.
        assertThat(lines)
                .containsExactly(
                        "sched: Allocate JobId=" + array + "_1(" + (array + 1) + ") NodeList=n1 #CPUs=1 Partition=gpu",
                        "sched: Allocate JobId=" + array + "_2(" + array + ") NodeList=n1 #CPUs=1 Partition=gpu");
        lines.clear();
        end("n1", array, 0, null);
        assertThat(lines)
                .containsExactly(
                        "_job_complete: JobId=" + array + "_2(" + array + ") WEXITSTATUS 0",
                        "_job_complete: JobId=" + array + "_2(" + array + ") done");
    }

    @Test
    void linesWaitForTheirRecordsToBeDurable() {
        JobLog log = new JobLog(lines::add);
        ClusterState state = ClusterFixture.aCluster().configured();
        log.applied(1, StateRecord.JobEnded.unrequested(7, JobState.TIMEOUT, 15, JobReason.TIME_LIMIT, 5), state);
        assertThat(lines).isEmpty();
        log.synced(1);
        assertThat(lines).containsExactly("Time limit exhausted for JobId=7");
    }
}
