package dev.sluice.ctld.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.BatchEnds;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.persistence.Recovery;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestControllerLoop {
    private static final Scheduler.SelectDefaults DEFAULTS = Scheduler.SelectDefaults.DEFAULT;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(1_000_000));

    @TempDir
    Path dir;

    private final List<Effect> effects = new CopyOnWriteArrayList<>();
    private ControllerLoop loop;

    private ClusterState state() {
        return ClusterFixture.aCluster().configured();
    }

    private ControllerLoop start(ClusterState state) throws Exception {
        Journal journal = Recovery.recover(dir, state, false).journal();
        loop = ControllerLoop.builder(state, journal, CLOCK)
                .scheduler(new Scheduler(SchedulerConfig.defaults(DEFAULTS)))
                .effects((e, image) -> effects.add(e))
                .fatal(t -> {})
                .build();
        loop.start();
        return loop;
    }

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    /**
     * Waits for the pass that follows the last answered batch: commands run in order, so the
     * answer to a command that changes nothing comes after that pass.
     */
    private void settle() throws Exception {
        get(loop.submit((s, now) -> dev.sluice.ctld.control.ControlResult.answer(0)));
        // A second round trip: the first one's own batch runs a pass when the pass before it
        // started jobs, and that pass is over once the second is answered.
        get(loop.submit((s, now) -> dev.sluice.ctld.control.ControlResult.answer(0)));
    }

    @Test
    void anAcknowledgedSubmissionIsAlreadyOnDisk() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        start(state());
        int id = get(loop.submit(
                (s, now) -> jobs.submit(s, Builders.aJob().name("first").build(), now)));
        assertThat(id).isEqualTo(1);
        // Read the journal behind the running loop's back, as a restarted controller would.
        ClusterState recovered = state();
        Recovery.recover(dir, recovered, false).journal().close();
        assertThat(recovered.job(1).request().name()).isEqualTo("first");
        assertThat(recovered.nextJobId()).isEqualTo(2);
    }

    @Test
    void aRegisteredNodeRunsAPendingJob() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        NodeControl nodes = new NodeControl(300, NodePolicy.DEFAULT);
        start(state());
        int id = get(loop.submit((s, now) -> jobs.submit(s, Builders.aJob().build(), now)));
        // Answered before the pass that schedules it.
        assertThat(loop.image().job(id).orElseThrow().status().state()).isEqualTo(JobState.PENDING);
        settle();
        assertThat(loop.image().reasonOf(loop.image().job(id).orElseThrow())).isEqualTo("Resources");
        get(loop.submit((s, now) -> nodes.register(
                s,
                new NodeControl.Registration(
                        "n1",
                        new NodeEndpoint("n1", "127.0.0.1", 7000),
                        new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                        new DaemonReport(1, "v", NodeFacts.NONE),
                        false,
                        Set.of(),
                        Optional.empty()),
                now)));
        settle();
        assertThat(loop.image().job(id).orElseThrow().status().state()).isEqualTo(JobState.RUNNING);
        assertThat(effects).contains(new Effect.LaunchBatch(id));
        get(loop.submit((s, now) -> BatchEnds.complete(s, "n1", id, 0, null, now)));
        assertThat(loop.image().job(id).orElseThrow().status().state()).isEqualTo(JobState.COMPLETED);
        assertThat(loop.image().node("n1").orElseThrow().allocCpus()).isZero();
    }

    /** salloc and srun learn from the answer itself whether their allocation started. */
    @Test
    void anAllocationIsAnsweredAfterThePassThatStartsIt() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        NodeControl nodes = new NodeControl(300, NodePolicy.DEFAULT);
        start(state());
        get(loop.submit((s, now) -> nodes.register(
                s,
                new NodeControl.Registration(
                        "n1",
                        new NodeEndpoint("n1", "127.0.0.1", 7000),
                        new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                        new DaemonReport(1, "v", NodeFacts.NONE),
                        false,
                        Set.of(),
                        Optional.empty()),
                now)));
        settle();
        int id = get(loop.submitThenSchedule(
                (s, now) -> jobs.submit(s, Builders.aJob().script("").build(), now, true)));
        assertThat(loop.image().job(id).orElseThrow().status().state()).isEqualTo(JobState.RUNNING);
    }

    /** A decision the job lifecycle refuses is refused whole; the loop goes on. */
    @Test
    void anIllegalDecisionIsRefusedAndChangesNothing() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        start(state());
        int id = get(loop.submit((s, now) -> jobs.submit(s, Builders.aJob().build(), now)));
        long sequence = loop.image().sequence();
        // A pending job cannot complete: it never ran.
        assertThatThrownBy(() -> get(loop.submit((s, now) -> dev.sluice.ctld.control.ControlResult.<Void>of(
                        List.of(dev.sluice.ctld.state.StateRecord.JobEnded.unrequested(
                                id, JobState.COMPLETED, 0, JobReason.NONE, now)),
                        List.of(),
                        null))))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.UNEXPECTED);
        assertThat(loop.image().sequence()).isEqualTo(sequence);
        assertThat(loop.image().job(id).orElseThrow().status().state()).isEqualTo(JobState.PENDING);
        int next = get(loop.submit((s, now) -> jobs.submit(s, Builders.aJob().build(), now)));
        assertThat(next).isEqualTo(id + 1);
    }

    @Test
    void aRefusedRequestChangesNothing() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        start(state());
        var bad = Builders.aJob().partition("nope").build();
        assertThatThrownBy(() -> get(loop.submit((s, now) -> jobs.submit(s, bad, now))))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(SlurmException.class)
                .hasMessage(ErrorCode.INVALID_PARTITION_NAME.text());
        assertThat(loop.image().jobs()).isEmpty();
        assertThat(loop.image().nextJobId()).isEqualTo(1);
    }
    /** Counts the loop's passes and syncs, as metrics would. */
    private static final class Counted implements LoopTimings {
        final java.util.concurrent.atomic.AtomicInteger passes = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger syncs = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void schedulePass(long nanos) {
            passes.incrementAndGet();
        }

        @Override
        public void journalSync(long nanos) {
            syncs.incrementAndGet();
        }
    }

    /** A started loop whose passes and syncs are counted. */
    private Counted startCounted() throws Exception {
        Counted counted = new Counted();
        ClusterState state = state();
        Journal journal = Recovery.recover(dir, state, false).journal();
        loop = ControllerLoop.builder(state, journal, CLOCK)
                .scheduler(new Scheduler(SchedulerConfig.defaults(DEFAULTS)))
                .effects((e, image) -> effects.add(e))
                .fatal(t -> {})
                .timings(counted)
                .build();
        loop.start();
        return counted;
    }

    private static NodeControl.Registration node(String name) {
        return new NodeControl.Registration(
                name,
                new NodeEndpoint(name, "127.0.0.1", 7000),
                new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                new DaemonReport(1, "v", NodeFacts.NONE),
                false,
                Set.of(),
                Optional.empty());
    }

    /**
     * A node daemon's reports of jobs that ended together are one group: decided in order, each
     * seeing the ones before it applied, made durable by one sync and followed by one pass.
     */
    @Test
    void aGroupIsOneBatchDecidedInOrder() throws Exception {
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        NodeControl nodes = new NodeControl(300, NodePolicy.DEFAULT);
        Counted counted = startCounted();
        get(loop.submit((s, now) -> nodes.register(s, node("n1"), now)));
        List<Integer> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(get(loop.submit((s, now) -> jobs.submit(s, Builders.aJob().build(), now))));
        }
        settle();
        assertThat(ids)
                .allSatisfy(id -> assertThat(
                                loop.image().job(id).orElseThrow().status().state())
                        .isEqualTo(JobState.RUNNING));
        int syncs = counted.syncs.get();
        int passes = counted.passes.get();
        // The second command of the group sees the first job ended (its node's CPUs free).
        List<Command<Integer>> group = new java.util.ArrayList<>();
        for (int id : ids) {
            group.add((s, now) -> {
                int running =
                        (int) ids.stream().filter(j -> s.job(j).isRunning()).count();
                var ended = BatchEnds.complete(s, "n1", id, 0, null, now);
                return dev.sluice.ctld.control.ControlResult.of(ended.records(), ended.effects(), running);
            });
        }
        List<Integer> runningAtEach = new java.util.ArrayList<>();
        for (var f : loop.submitAll(group)) {
            runningAtEach.add(get(f));
        }
        assertThat(runningAtEach).containsExactly(4, 3, 2, 1);
        assertThat(ids)
                .allSatisfy(id -> assertThat(
                                loop.image().job(id).orElseThrow().status().state())
                        .isEqualTo(JobState.COMPLETED));
        settle();
        // One sync for the group's records, one pass after them (it starts nothing: no sync).
        assertThat(counted.syncs.get() - syncs).isEqualTo(1);
        assertThat(counted.passes.get() - passes).isEqualTo(1);
    }

    /**
     * A heartbeat that changes nothing costs no scheduling pass; a change does, and so does the
     * first batch after a pass that started jobs.
     */
    @Test
    void aBatchThatChangesNothingRunsNoPass() throws Exception {
        NodeControl nodes = new NodeControl(300, NodePolicy.DEFAULT);
        JobControl jobs = JobControl.builder(DEFAULTS).build();
        Counted counted = startCounted();
        get(loop.submit((s, now) -> nodes.register(s, node("n1"), now)));
        settle();
        int passes = counted.passes.get();
        for (int i = 0; i < 3; i++) {
            boolean reregister = get(loop.<Boolean>submit((s, now) -> nodes.heartbeat(s, "n1", now)));
            assertThat(reregister).isFalse();
        }
        assertThat(counted.passes.get()).isEqualTo(passes);
        get(loop.submit((s, now) -> jobs.submit(s, Builders.aJob().build(), now)));
        settle();
        // The submission's pass, and (since that pass started the job) one after it.
        assertThat(counted.passes.get()).isEqualTo(passes + 2);
        passes = counted.passes.get();
        boolean again = get(loop.<Boolean>submit((s, now) -> nodes.heartbeat(s, "n1", now)));
        assertThat(again).isFalse();
        assertThat(counted.passes.get()).isEqualTo(passes);
    }
}
