package dev.sluice.ctld.server;

import dev.sluice.ctld.accounting.AccountingPipeline;
import dev.sluice.ctld.accounting.AccountingSettings;
import dev.sluice.ctld.accounting.PolicyPuller;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.AllocationControl;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.JobPurge;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.PreemptKills;
import dev.sluice.ctld.control.ReservationRollover;
import dev.sluice.ctld.control.StepCommands;
import dev.sluice.ctld.control.WarnSignals;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.loop.Command;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.EffectSink;
import dev.sluice.ctld.loop.JobLog;
import dev.sluice.ctld.loop.JournalObserver;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.loop.LoopInbox;
import dev.sluice.ctld.loop.LoopTimings;
import dev.sluice.ctld.loop.StateSaves;
import dev.sluice.ctld.metrics.ControllerMetrics;
import dev.sluice.ctld.persistence.Recovery;
import dev.sluice.ctld.rpc.ControllerStatistics;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.auth.DaemonAuth;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller behind its sockets: the state recovered from the journal, the loop and what
 * drives it (the periodic sweeps, the node dispatcher, the accounting outbox and the policy it
 * pulls from sluice-dbd), and the statistics and metrics it reports. {@link CommandEndpoints}
 * serves it.
 */
final class ControllerCore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ControllerCore.class);
    /** How often the controller asks sluice-dbd whether associations or QOS changed. */
    static final Duration POLICY_INTERVAL = Duration.ofSeconds(2);

    final DaemonAuth auth;
    final ControllerLoop loop;
    /** Null when node effects go elsewhere (a simulator). */
    final NodeDispatcher dispatcher;
    /** Null when accounting is off. */
    final AccountingPipeline accounting;

    final JobControl jobs;
    final NodeControl nodes;
    final ControllerStatistics statistics;
    /** When slurmctld would have saved its state: which reservations list their cores. */
    final StateSaves saves;
    /** Null when metrics are not served. */
    final ControllerMetrics metrics;

    private ControllerCore(
            DaemonAuth auth,
            ControllerLoop loop,
            NodeDispatcher dispatcher,
            AccountingPipeline accounting,
            JobControl jobs,
            NodeControl nodes,
            ControllerStatistics statistics,
            StateSaves saves,
            ControllerMetrics metrics) {
        this.auth = auth;
        this.loop = loop;
        this.dispatcher = dispatcher;
        this.accounting = accounting;
        this.jobs = jobs;
        this.nodes = nodes;
        this.statistics = statistics;
        this.saves = saves;
        this.metrics = metrics;
    }

    /**
     * Recovers the state and starts the loop and the accounting outbox.
     *
     * @param nodeEffects where launches, kills and signals go; null for the real gRPC dispatcher
     */
    static ControllerCore start(
            CtldConfig config,
            InstantSource clock,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal,
            EffectSink nodeEffects,
            boolean withMetrics)
            throws IOException, InterruptedException {
        if (config.access().clusterKeys() == null) {
            throw new IllegalStateException("no cluster key loaded: the controller authenticates every daemon with it");
        }
        // Node daemons and sluice-dbd obey credentials of root, SlurmUser or this account.
        DaemonAuth auth = DaemonAuth.forThisProcess(
                config.access().clusterKeys(),
                config.controller().controlHost(),
                List.of(config.topology().nodePolicy().slurmUser()),
                clock);
        ClusterState state = new ClusterState(
                config.nodes(),
                config.partitions(),
                config.topology().memberships(),
                config.jobs().firstJobId());
        Path stateDir = Path.of(config.controller().stateSaveLocation());
        Recovery.Result recovered = Recovery.recover(stateDir, state, truncateCorruptJournal);
        log.info(
                "recovered {} snapshot and {} journal records from {}; next job id {}",
                recovered.snapshotEntries(),
                recovered.journalEntries(),
                stateDir,
                state.nextJobId());

        Scheduler.SelectDefaults defaults = config.scheduler().select();
        // AccountingStorageEnforce: the last saved associations and QOS until dbd sends newer.
        // Accounting is on only with AccountingStorageType=accounting_storage/slurmdbd; the QOS
        // priorities it sends feed the QOS factor even when nothing is enforced.
        var acct = AccountingSettings.from(config);
        PolicyView limits = acct.isPresent()
                ? new PolicyView(
                        AccountingSettings.enforcement(config),
                        AccountingPolicy.EMPTY,
                        AccountingSettings.tracksWckeys(config))
                : PolicyView.OFF;
        JobControl jobs = JobControl.builder(defaults)
                .maxArraySize(config.jobs().maxArraySize())
                .limits(limits)
                .build();
        NodeControl nodes = new NodeControl(
                config.timers().slurmdTimeoutSeconds(), config.topology().nodePolicy());
        // The loop's front, made first: the dispatcher and metrics need the loop back, and take this.
        LoopInbox inbox = new LoopInbox(state.image());
        NodeDispatcher dispatcher = nodeEffects == null ? new NodeDispatcher(config, auth, inbox) : null;
        AccountingPipeline accounting = null;
        if (acct.isPresent()) {
            accounting = AccountingPipeline.open(
                    acct.get(),
                    stateDir,
                    state.sequence(),
                    clock,
                    auth,
                    defaults.memoryConsumable(),
                    defaults.licenses());
            PolicyPuller puller = new PolicyPuller(limits, stateDir, acct.get(), POLICY_INTERVAL, auth, clock);
            puller.loadSaved();
            accounting.keepPolicy(puller);
        }
        // sdiag's counters, the reservations' 30 s rollover, the gang scheduler's turns and the
        // priority calculation (PriorityCalcPeriod) count from the controller's start, as slurmctld's timers do.
        long started = clock.instant().getEpochSecond();
        // The starts journaled before, or on upgrade those of the side file controllers kept then.
        List<Long> legacyStarts = state.controllerStarts().isEmpty() ? PriorityStartsFile.read(stateDir) : List.of();
        List<Long> earlier = earlierStarts(state.controllerStarts(), legacyStarts, started);
        ControllerStatistics statistics = new ControllerStatistics(started);
        StateSaves saves = new StateSaves(clock);
        ControllerMetrics metrics = null;
        LoopTimings timings = statistics;
        if (withMetrics) {
            AccountingPipeline outbox = accounting;
            metrics = new ControllerMetrics(inbox::image, () -> outbox == null ? -1 : outbox.depth(), clock);
            timings = LoopTimings.both(metrics.loopTimings(), statistics);
        }
        ControllerLoop loop = ControllerLoop.builder(state, recovered.journal(), clock)
                .scheduler(new Scheduler(config.scheduler().turnsFrom(started).withPriorityEpoch(started, earlier)))
                .effects(nodeEffects == null ? dispatcher : nodeEffects)
                .periodic(periodic(config, nodes, started))
                .fatal(fatal)
                .observer(JournalObserver.both(
                        JournalObserver.both(observers(accounting, nodeEffects == null), statistics), saves))
                .inbox(inbox)
                .enforce(limits)
                .timersFrom(started)
                .timings(timings)
                .build();
        loop.start();
        journalStarts(loop, legacyStarts, started, stateDir);
        if (accounting != null) {
            accounting.start();
        }
        return new ControllerCore(auth, loop, dispatcher, accounting, jobs, nodes, statistics, saves, metrics);
    }

    /** The starts before {@code started}, oldest first, at most one fewer than a state keeps. */
    static List<Long> earlierStarts(List<Long> journaled, List<Long> legacy, long started) {
        List<Long> earlier = Stream.concat(journaled.stream(), legacy.stream())
                .filter(s -> s < started)
                .distinct()
                .sorted()
                .toList();
        int kept = ClusterState.KEPT_CONTROLLER_STARTS - 1;
        return earlier.size() > kept ? earlier.subList(earlier.size() - kept, earlier.size()) : earlier;
    }

    /**
     * Journals this controller's start, with the side file's on upgrade, before it answers
     * anyone; the side file goes once they are in the journal.
     */
    private static void journalStarts(ControllerLoop loop, List<Long> legacy, long started, Path stateDir) {
        List<StateRecord> records = new ArrayList<>();
        legacy.stream().filter(s -> s < started).forEach(s -> records.add(new StateRecord.ControllerStarted(s)));
        records.add(new StateRecord.ControllerStarted(started));
        LoopAnswers.await(loop.submit((s, now) -> ControlResult.of(records, List.of(), null)));
        if (!legacy.isEmpty()) {
            PriorityStartsFile.remove(stateDir);
        }
    }

    /** What the loop runs on every tick besides scheduling. */
    private static List<Command<?>> periodic(CtldConfig config, NodeControl nodes, long started) {
        Command<Void> silence = nodes::checkSilence;
        Command<Void> purge = (s, now) -> JobPurge.purge(s, now, config.timers().minJobAgeSeconds());
        Command<Void> expire = AllocationControl::expire;
        Command<Void> warn = WarnSignals::send;
        Command<Void> preemptKills = PreemptKills::expire;
        Command<Void> steps = StepCommands::sweep;
        Command<Void> rollover = (s, now) -> ReservationRollover.advance(s, started, now);
        return List.of(silence, purge, expire, warn, preemptKills, steps, rollover);
    }

    /**
     * Accounting when it is on; the job log for a controller of real nodes (a simulation's
     * thousands of jobs are not a cluster's history).
     */
    private static JournalObserver observers(AccountingPipeline accounting, boolean realNodes) {
        JournalObserver outbox = accounting == null ? JournalObserver.NONE : accounting;
        return realNodes ? JournalObserver.both(JobLog.toLog(), outbox) : outbox;
    }

    /** Accounting records not yet acknowledged by sluice-dbd; -1 when accounting is off. */
    int accountingBacklog() {
        return accounting == null ? -1 : accounting.depth();
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
        loop.close();
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (accounting != null) {
            accounting.close();
        }
    }
}
