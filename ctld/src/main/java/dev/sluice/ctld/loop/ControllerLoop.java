package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.PlanApplier;
import dev.sluice.ctld.control.SoftChange;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.loop.CommandQueue.Pending;
import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.JobLifecycle;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's single writer. One thread takes commands from a queue, lets each decide its
 * records, journals and replays them, and answers only after the journal sync that covers them
 * (group commit: every command drained in one batch shares one fsync), once a new immutable
 * {@link ClusterImage} showing them is published and their effects are handed to the
 * {@link EffectSink}. Then it runs a scheduling pass over that image, journals the starts
 * under a sync of their own and publishes again.
 *
 * <p>Concurrency: everything but {@link #submit} and {@link #image} runs on the loop thread,
 * so state needs no locks. Readers see only published images.
 */
public final class ControllerLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ControllerLoop.class);
    // Each batch costs a scheduling pass over the whole queue and two syncs (journal, accounting
    // outbox) whatever its size, so many clients submitting at once are served in as few batches
    // as possible: at 512 a burst of API submissions onto a 20,000-job queue spent most of its
    // time in passes (docs/benchmarks.md, "End to end").
    private static final int MAX_BATCH = 4096;

    private final ClusterState state;
    private final RecordWriter writer;
    private final InstantSource clock;
    // Replaced by scontrol reconfigure (PreemptType, SchedulerParameters, ...); read by the loop.
    private volatile Scheduler scheduler;
    private final EffectSink effects;
    private final List<Command<?>> periodic;
    private final Consumer<Throwable> fatal;
    private final LoopInbox inbox;
    private final SchedulingPasses passes;
    /** Loop thread only: whether the batch being decided changed soft state. */
    private boolean softChanged;

    private final Thread thread;
    // Set when StateSaveLocation refused a write: memory is then ahead of disk, so nothing new
    // is decided until the controller restarts from what the disk holds.
    private volatile boolean readOnly;
    private final PolicyView limits;
    private final LoopTimings timings;

    /**
     * A loop over {@code state}, which {@code journal} holds, deciding at {@code clock}'s time;
     * the rest is given to the builder.
     */
    public static ControllerLoopBuilder builder(ClusterState state, Journal journal, InstantSource clock) {
        return new ControllerLoopBuilder(state, journal, clock);
    }

    ControllerLoop(ControllerLoopBuilder b) {
        this.state = requireNonNull(b.state, "state is null");
        this.writer = new RecordWriter(state, b.journal, b.observer);
        this.clock = requireNonNull(b.clock, "clock is null");
        this.scheduler = requireNonNull(b.scheduler, "scheduler is null");
        this.effects = requireNonNull(b.effects, "effects is null");
        this.periodic = List.copyOf(b.periodic);
        this.fatal = requireNonNull(b.fatal, "fatal is null");
        this.inbox = b.inbox != null ? b.inbox : new LoopInbox(state.image());
        this.limits = requireNonNull(b.limits, "limits is null");
        this.timings = requireNonNull(b.timings, "timings is null");
        this.passes = new SchedulingPasses(
                b.timersFrom != null ? b.timersFrom : clock.instant().getEpochSecond());
        this.thread = Thread.ofPlatform().name("ctld-loop").daemon(true).unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    /**
     * Asked for through the fatal handler once StateSaveLocation is writable again after a
     * failed write: the controller must rebuild itself from disk (in place or by restarting).
     */
    public static final class RestartRequested extends Exception {
        public RestartRequested() {
            super("StateSaveLocation is writable again; restart to recover from disk");
        }
    }

    /** True while StateSaveLocation cannot be written: queries answer, changes are refused. */
    public boolean readOnly() {
        return readOnly;
    }

    /** What is enforced now, with the accounting policy last pulled (sprio's QOS factors, sshare's tree). */
    public PolicyView enforced() {
        return limits;
    }

    /** The scheduler later passes use: {@code scontrol reconfigure} read new settings. */
    public void useScheduler(Scheduler next) {
        this.scheduler = requireNonNull(next, "scheduler is null");
    }

    /**
     * The scheduler in use, and so the settings {@code scontrol reconfigure} last read: what
     * submission and {@code scontrol show licenses} take slurm.conf's {@code Licenses} from.
     */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** The latest published image. Never blocks. */
    public ClusterImage image() {
        return inbox.image();
    }

    /** The loop's clock, in epoch seconds: what readers of an image compare its times with. */
    public long now() {
        return clock.instant().getEpochSecond();
    }

    /** Queues a command; the future completes once its records are durable ({@link LoopInbox#submit}). */
    public <T> CompletableFuture<T> submit(Command<T> command) {
        return inbox.submit(command);
    }

    /** Queues a command whose caller hears back after the pass that follows ({@link LoopInbox#submitThenSchedule}). */
    public <T> CompletableFuture<T> submitThenSchedule(Command<T> command) {
        return inbox.submitThenSchedule(command);
    }

    /** Queues commands as one group, taken into the same batch ({@link LoopInbox#submitAll}). */
    public <T> List<CompletableFuture<T>> submitAll(List<? extends Command<T>> commands) {
        return inbox.submitAll(commands);
    }

    private record Done<T>(Pending<T> pending, T value, Throwable error) {
        void complete() {
            if (error != null) {
                pending.future().completeExceptionally(error);
            } else {
                pending.future().complete(value);
            }
        }
    }

    private void run() {
        long lastTick = 0;
        while (inbox.open()) {
            try {
                List<Pending<?>> batch = inbox.queue().take(MAX_BATCH, 200);
                long now = clock.instant().getEpochSecond();
                boolean tick = now != lastTick;
                if (tick) {
                    lastTick = now;
                }
                if (batch.isEmpty() && !tick) {
                    continue;
                }
                if (readOnly) {
                    refuseWhileReadOnly(batch, tick);
                    continue;
                }
                runBatch(batch, tick, now);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                log.error("controller loop failed", e);
                fatal.accept(e);
                return;
            }
        }
    }

    private void runBatch(List<Pending<?>> batch, boolean tick, long now) {
        softChanged = false;
        List<Done<?>> done = new ArrayList<>(batch.size());
        List<Effect> toRun = new ArrayList<>();
        for (Pending<?> p : batch) {
            done.add(decide(p, now, toRun));
        }
        if (tick) {
            for (Command<?> c : periodic) {
                decide(Pending.of(c, false), now, toRun);
            }
        }
        // Callers hear back before the pass: a submission's latency is its sync, not a pass
        // over the whole queue (Slurm too answers sbatch before it schedules). The pass then
        // starts from the image just published, and its starts share a sync of their own.
        if (!commit(done, toRun)) {
            return;
        }
        // The pass's inputs, each swapped in whole from outside the loop: a new one is a change.
        SchedulingPasses.Inputs inputs = new SchedulingPasses.Inputs(scheduler, limits, limits.policy());
        if (!readOnly) {
            SchedulePlan plan =
                    passes.planIfDue(inbox.image(), inputs, writer.nextSequence(), softChanged, tick, now, timings);
            if (plan != null) {
                apply(plan, now, inputs);
            }
        }
        done.stream().filter(d -> d.pending.afterPass()).forEach(Done::complete);
    }

    /** Journals a pass's plan under a sync of its own and publishes it. */
    private void apply(SchedulePlan plan, long now, SchedulingPasses.Inputs inputs) {
        List<Effect> toRun = new ArrayList<>();
        Done<Void> applied = decide(
                Pending.<Void>of(
                        (s, at) -> PlanApplier.apply(
                                s, plan, at, inputs.scheduler().config().prologWaited()),
                        false),
                now,
                toRun);
        if (applied.error != null) {
            log.error("scheduling pass refused: {}", applied.error.getMessage());
        }
        commit(List.of(), toRun);
    }

    /**
     * Makes what was applied durable (one sync for journal and outbox), publishes the image,
     * hands effects off and answers. False when StateSaveLocation refused the write.
     */
    private boolean commit(List<Done<?>> done, List<Effect> toRun) {
        try {
            writer.sync(timings);
        } catch (IOException e) {
            // Memory is now ahead of disk: answering would acknowledge what a restart loses.
            // The last published image still matches the disk, so queries go on from it.
            log.error(
                    "cannot write StateSaveLocation ({}): refusing changes, still answering queries, until it"
                            + " is writable again",
                    e.getMessage());
            SlurmException refused = new SlurmException(ErrorCode.STATE_SAVE_FAILED);
            done.forEach(d -> d.pending.future().completeExceptionally(refused));
            readOnly = true;
            return false;
        }
        ClusterImage published = state.image();
        inbox.publish(published);
        // Effects are handed off (the sink never blocks) before callers hear back, so whoever
        // observes an answer also observes its effects under way.
        effects.executeAll(toRun, published);
        done.stream().filter(d -> !d.pending.afterPass()).forEach(Done::complete);
        return true;
    }

    private void refuseWhileReadOnly(List<Pending<?>> batch, boolean tick) {
        SlurmException refused = new SlurmException(ErrorCode.STATE_SAVE_FAILED);
        batch.forEach(p -> p.future().completeExceptionally(refused));
        if (tick && writer.writable()) {
            log.info("StateSaveLocation is writable again; restarting from what it holds");
            inbox.shut();
            fatal.accept(new RestartRequested());
        }
    }

    private <T> Done<T> decide(Pending<T> p, long now, List<Effect> toRun) {
        ControlResult<T> result;
        try {
            result = p.command().decide(state, now);
            // A decision the job lifecycle refuses is refused whole, before any of it is applied.
            JobLifecycle.checkDecision(state, result.records());
        } catch (SlurmException e) {
            return new Done<>(p, null, e);
        } catch (RuntimeException e) {
            log.error("command failed", e);
            return new Done<>(p, null, new SlurmException(ErrorCode.UNEXPECTED, String.valueOf(e.getMessage())));
        }
        result.records().forEach(writer::apply);
        result.softChanges().forEach(change -> SoftState.apply(state, change));
        softChanged |= result.softChanges().stream().anyMatch(SoftChange::mattersToScheduling);
        toRun.addAll(result.effects());
        return new Done<>(p, result.response(), null);
    }

    @Override
    public void close() {
        inbox.shut();
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Pending<?> p : inbox.queue().remaining()) {
            p.future().completeExceptionally(new SlurmException(ErrorCode.UNEXPECTED, "controller is shutting down"));
        }
    }
}
