package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything a {@link ControllerLoop} works with, given before it is built: a loop is complete
 * when made, and nothing is wired into it afterwards. Those that need the loop back (the node
 * dispatcher, metrics) are given its {@link LoopInbox} instead, made first.
 */
public final class ControllerLoopBuilder {
    final ClusterState state;
    final Journal journal;
    final InstantSource clock;
    Scheduler scheduler;
    EffectSink effects;
    List<Command<?>> periodic = List.of();
    Consumer<Throwable> fatal;
    JournalObserver observer = JournalObserver.NONE;
    LoopInbox inbox;
    PolicyView limits = PolicyView.OFF;
    LoopTimings timings = LoopTimings.NONE;
    Long timersFrom;

    ControllerLoopBuilder(ClusterState state, Journal journal, InstantSource clock) {
        this.state = state;
        this.journal = journal;
        this.clock = clock;
    }

    /** The scheduler the first passes use (later ones: {@link ControllerLoop#useScheduler}). */
    public ControllerLoopBuilder scheduler(Scheduler first) {
        this.scheduler = requireNonNull(first, "first is null");
        return this;
    }

    /** Where decided effects go once durable (launches, kills, signals); never blocks. */
    public ControllerLoopBuilder effects(EffectSink sink) {
        this.effects = requireNonNull(sink, "sink is null");
        return this;
    }

    /** Commands run about once a second (silence checks, purges). */
    public ControllerLoopBuilder periodic(List<Command<?>> commands) {
        this.periodic = List.copyOf(commands);
        return this;
    }

    /** Called when state can no longer be saved; the process must stop. */
    public ControllerLoopBuilder fatal(Consumer<Throwable> handler) {
        this.fatal = requireNonNull(handler, "handler is null");
        return this;
    }

    /**
     * Sees every journalled record and shares each batch's sync (accounting); {@link
     * JournalObserver#NONE} where nothing listens.
     */
    public ControllerLoopBuilder observer(JournalObserver journalObserver) {
        this.observer = requireNonNull(journalObserver, "journalObserver is null");
        return this;
    }

    /**
     * Where commands wait and images are published, when others were given it before the loop
     * was built; one of the state's own otherwise.
     */
    public ControllerLoopBuilder inbox(LoopInbox loopInbox) {
        this.inbox = requireNonNull(loopInbox, "loopInbox is null");
        return this;
    }

    /** AccountingStorageEnforce: the policy every scheduling pass applies (off unless given). */
    public ControllerLoopBuilder enforce(PolicyView view) {
        this.limits = requireNonNull(view, "view is null");
        return this;
    }

    /** Where the loop reports how long its passes and syncs take (metrics, sdiag). */
    public ControllerLoopBuilder timings(LoopTimings loopTimings) {
        this.timings = requireNonNull(loopTimings, "loopTimings is null");
        return this;
    }

    /**
     * The controller's start, from which slurmctld's periodic passes count (see {@link
     * dev.sluice.ctld.sched.BeginTimeLag}); the loop's construction unless given.
     */
    public ControllerLoopBuilder timersFrom(long controllerStart) {
        this.timersFrom = controllerStart;
        return this;
    }

    public ControllerLoop build() {
        return new ControllerLoop(this);
    }
}
