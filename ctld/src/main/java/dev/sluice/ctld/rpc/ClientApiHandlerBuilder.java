package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.StateSaves;
import dev.sluice.ctld.step.StepService;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * What a {@link ClientApiHandler} works with besides the loop and its handlers, given before it
 * is built (the server wires them): nothing is set on a handler afterwards.
 */
public final class ClientApiHandlerBuilder {
    final ControllerLoop loop;
    final JobControl jobs;
    final NodeControl nodes;
    final CtldConfig config;
    final long startTime;
    final Reconfigurer reconfigurer;
    StepService steps;
    ControllerStatistics statistics;
    IntSupplier dbdQueue = () -> 0;
    Set<Integer> operatorUids = Set.of(0);
    StateSaves saves;
    NodeReadings readings = new NodeReadings();

    ClientApiHandlerBuilder(
            ControllerLoop loop,
            JobControl jobs,
            NodeControl nodes,
            CtldConfig config,
            long startTime,
            Reconfigurer reconfigurer) {
        this.loop = loop;
        this.jobs = jobs;
        this.nodes = nodes;
        this.config = config;
        this.startTime = startTime;
        this.reconfigurer = reconfigurer;
    }

    /** Job steps, served where real node daemons run them; refused without (a simulation). */
    public ClientApiHandlerBuilder steps(StepService stepService) {
        this.steps = requireNonNull(stepService, "stepService is null");
        return this;
    }

    /**
     * sdiag's statistics: counted by {@code stats} (which the server also hands the loop), with
     * the accounting records not yet taken by sluice-dbd from {@code dbdQueue}. Counted from the
     * start time alone unless given.
     */
    public ClientApiHandlerBuilder statistics(ControllerStatistics stats, IntSupplier dbdQueue) {
        this.statistics = requireNonNull(stats, "stats is null");
        this.dbdQueue = requireNonNull(dbdQueue, "dbdQueue is null");
        return this;
    }

    /** When slurmctld would have saved its state: which reservations list their cores. */
    public ClientApiHandlerBuilder stateSaves(StateSaves stateSaves) {
        this.saves = stateSaves;
        return this;
    }

    /** Who besides root is an operator: SlurmUser's uid (resolved by the server at start). */
    public ClientApiHandlerBuilder operators(Set<Integer> uids) {
        this.operatorUids = Set.copyOf(uids);
        return this;
    }

    /** Where heartbeats leave the nodes' CPU load and free memory (NodeRegistryService). */
    public ClientApiHandlerBuilder readings(NodeReadings nodeReadings) {
        this.readings = requireNonNull(nodeReadings, "nodeReadings is null");
        return this;
    }

    public ClientApiHandler build() {
        return new ClientApiHandler(this);
    }
}
