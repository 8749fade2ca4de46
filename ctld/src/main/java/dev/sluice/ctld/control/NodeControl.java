package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobState;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Node handlers: registration, heartbeats, administrative updates and silence detection. */
public final class NodeControl {
    private final int slurmdTimeoutSeconds;

    public NodeControl(int slurmdTimeoutSeconds) {
        this.slurmdTimeoutSeconds = slurmdTimeoutSeconds;
    }

    /** What a node daemon says about itself when it (re)connects. */
    public record Registration(
            String name,
            String hostname,
            String addr,
            int port,
            NodeHardware hardware,
            boolean dynamic,
            Set<Integer> runningJobs,
            long bootTime,
            String version) {
        public Registration {
            runningJobs = Set.copyOf(runningJobs);
        }
    }

    /** Answer to a registration: jobs the node runs that the controller does not know. */
    public record RegistrationAnswer(List<Integer> orphanJobs) {}

    public ControlResult<RegistrationAnswer> register(ClusterState state, Registration reg, long now) {
        Node known = state.node(reg.name());
        if (known == null && !reg.dynamic()) {
            throw new SlurmException(
                    ErrorCode.INVALID_NODE_NAME, "Node " + reg.name() + " not found in the configuration");
        }
        List<StateRecord> records = new ArrayList<>();
        if (known == null || !known.registered() || changed(known, reg)) {
            records.add(new StateRecord.NodeRegistered(
                    reg.name(),
                    reg.hostname(),
                    reg.addr(),
                    reg.port(),
                    reg.hardware(),
                    reg.dynamic(),
                    reg.bootTime(),
                    reg.version(),
                    now));
        }
        if (known != null && known.down() && known.reason().equals("Not responding")) {
            // A node that only stopped answering comes back by itself (ReturnToService=1 style
            // for silence; administrative DOWN stays DOWN).
            records.add(new StateRecord.NodeStateChanged(reg.name(), NodeTransition.RESUME, "", "", now));
        }
        List<Effect> effects = new ArrayList<>();
        List<Integer> orphans = new ArrayList<>();
        Set<Integer> expected = new HashSet<>();
        for (Job job : state.jobs()) {
            if (job.isRunning() && job.allocation().batchHost().equals(reg.name())) {
                expected.add(job.id());
                if (!reg.runningJobs().contains(job.id())) {
                    // Journaled as started but not running there: the controller died between
                    // the record and the launch, or the launch was lost. Launch is idempotent.
                    effects.add(new Effect.LaunchBatch(job.id()));
                }
            }
        }
        for (int running : reg.runningJobs()) {
            Job job = state.job(running);
            if (!expected.contains(running) && (job == null || !job.isRunning())) {
                orphans.add(running);
            }
        }
        return new ControlResult<>(
                records, List.of(new SoftChange.NodeHeard(reg.name(), now)), effects, new RegistrationAnswer(orphans));
    }

    private static boolean changed(Node known, Registration reg) {
        return !known.addr().equals(reg.addr())
                || known.port() != reg.port()
                || !known.hostname().equals(reg.hostname())
                || !known.hardware().equals(reg.hardware())
                || known.bootTime() != reg.bootTime()
                || !known.version().equals(reg.version());
    }

    /** @return true when the node must register again (the controller does not know it as up) */
    public ControlResult<Boolean> heartbeat(ClusterState state, String name, long now) {
        Node node = state.node(name);
        if (node == null || !node.registered() || !state.isResponding(name)) {
            return ControlResult.answer(true);
        }
        return new ControlResult<>(List.of(), List.of(new SoftChange.NodeHeard(name, now)), List.of(), false);
    }

    /** {@code scontrol update NodeName=... State=... Reason=...}. */
    public ControlResult<Void> update(
            ClusterState state, Caller caller, List<String> names, String newState, String reason, long now) {
        if (!caller.isOperator()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        NodeTransition transition = parseTransition(newState);
        if ((transition == NodeTransition.DRAIN || transition == NodeTransition.DOWN)
                && (reason == null || reason.isBlank())) {
            throw new SlurmException(
                    ErrorCode.INVALID_ARGUMENT,
                    "You must specify a reason when DOWNING or DRAINING a node. Request denied");
        }
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (String name : names) {
            if (state.node(name) == null) {
                throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
            }
        }
        for (String name : names) {
            records.add(new StateRecord.NodeStateChanged(
                    name, transition, reason == null ? "" : reason, caller.userName(), now));
            if (transition == NodeTransition.DOWN) {
                failJobsOn(state, name, now, records, effects);
            }
        }
        return ControlResult.of(records, effects, null);
    }

    private static NodeTransition parseTransition(String value) {
        String v = value == null ? "" : value.toUpperCase(Locale.ROOT);
        return switch (v) {
            case "DRAIN" -> NodeTransition.DRAIN;
            case "DOWN" -> NodeTransition.DOWN;
            case "RESUME", "IDLE" -> NodeTransition.RESUME;
            case "UNDRAIN" -> NodeTransition.UNDRAIN;
            case "FUTURE" -> NodeTransition.FUTURE;
            default -> throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid node state specified");
        };
    }

    /**
     * Periodic check: nodes silent for longer than SlurmdTimeout go DOWN with reason
     * {@code Not responding}, and the jobs they ran end as NODE_FAIL.
     */
    public ControlResult<Void> checkSilence(ClusterState state, long now) {
        if (slurmdTimeoutSeconds <= 0) {
            // SlurmdTimeout=0: Slurm never marks a silent node DOWN.
            return ControlResult.answer(null);
        }
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        List<SoftChange> soft = new ArrayList<>();
        for (Node node : state.nodes()) {
            String name = node.name();
            if (!state.isResponding(name) || now - state.lastHeard(name) <= slurmdTimeoutSeconds) {
                continue;
            }
            soft.add(new SoftChange.NodeSilent(name));
            if (!node.down()) {
                records.add(
                        new StateRecord.NodeStateChanged(name, NodeTransition.DOWN, "Not responding", "slurm", now));
            }
            failJobsOn(state, name, now, records, effects);
        }
        return new ControlResult<>(records, soft, effects, null);
    }

    private static void failJobsOn(
            ClusterState state, String node, long now, List<StateRecord> records, List<Effect> effects) {
        for (Job job : state.jobs()) {
            if (job.isRunning() && job.allocation().nodeNames().contains(node)) {
                if (job.request().requeue()) {
                    records.add(new StateRecord.JobRequeued(job.id(), now));
                } else {
                    records.add(new StateRecord.JobEnded(job.id(), JobState.NODE_FAIL, 0, "None", now));
                }
                effects.add(new Effect.Terminate(job.id(), job.allocation().nodeNames(), JobState.NODE_FAIL));
            }
        }
    }
}
