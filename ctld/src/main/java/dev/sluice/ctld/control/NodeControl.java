package dev.sluice.ctld.control;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Node handlers: registration (with the check that a node has what it is configured to have),
 * heartbeats, administrative updates, dynamic creation and deletion, and silence detection.
 */
public final class NodeControl {
    static final String NOT_RESPONDING = "Not responding";

    private final int slurmdTimeoutSeconds;
    private final NodePolicy policy;

    /** Who the controller's own node state changes are recorded as (slurm.conf SlurmUser). */
    public String slurmUser() {
        return policy.slurmUser();
    }

    public NodeControl(int slurmdTimeoutSeconds, NodePolicy policy) {
        this.slurmdTimeoutSeconds = slurmdTimeoutSeconds;
        this.policy = policy;
    }

    /**
     * What a node daemon detected: its hardware, and per GRES name the count it could verify
     * (device files that exist, NVML devices). Names it had no means to check are absent.
     */
    public record Found(NodeHardware hardware, Map<String, Long> gres) {
        public Found {
            gres = Map.copyOf(gres);
        }
    }

    /**
     * What a node daemon says about itself when it (re)connects.
     *
     * @param equipment its hardware, and a dynamic node's own {@code Feature=} and {@code Gres=}
     *     (empty for configured nodes)
     * @param runningJobs the jobs it runs
     * @param found what it detected, when the daemon reports it
     */
    public record Registration(
            String name,
            NodeEndpoint endpoint,
            NodeEquipment equipment,
            DaemonReport daemon,
            boolean dynamic,
            Set<Integer> runningJobs,
            Optional<Found> found) {
        public Registration {
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(equipment, "equipment is null");
            requireNonNull(daemon, "daemon is null");
            runningJobs = Set.copyOf(runningJobs);
            requireNonNull(found, "found is null");
        }
    }

    /** Answer to a registration: jobs the node runs that the controller does not know. */
    public record RegistrationAnswer(List<Integer> orphanJobs) {}

    /**
     * A node daemon (re)connects: its record if anything changed, a drain if it has less than it
     * should, and the launches of jobs journaled as started there that it does not run.
     */
    public ControlResult<RegistrationAnswer> register(ClusterView state, Registration claimed, long now) {
        return new NodeRegistration(policy).register(state, claimed, now);
    }

    /** @return true when the node must register again (the controller does not know it as up) */
    public ControlResult<Boolean> heartbeat(ClusterView state, String name, long now) {
        Node node = state.node(name);
        if (node == null || !node.registered() || !state.isResponding(name)) {
            return ControlResult.answer(true);
        }
        return new ControlResult<>(List.of(), List.of(new SoftChange.NodeHeard(name, now)), List.of(), false);
    }

    /**
     * {@code scontrol update NodeName=... State=... Reason=...}.
     *
     * @param newState empty when the update named none (refused, as slurmctld does)
     */
    public ControlResult<Void> update(
            ClusterView state,
            Caller caller,
            List<String> names,
            Optional<NodeStateRequest> newState,
            String reason,
            long now) {
        if (!caller.isOperator()) {
            // Slurm answers node RPCs from non-operators with ESLURM_USER_ID_MISSING.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        NodeTransition transition = transition(newState);
        if ((transition == NodeTransition.DRAIN || transition == NodeTransition.DOWN)
                && (reason == null || reason.isBlank())) {
            throw new SlurmException(
                    ErrorCode.INVALID_ARGUMENT,
                    "You must specify a reason when DOWNING or DRAINING a node. Request denied");
        }
        // sinfo -R shows the reason to every user.
        ControlCharacters.checked("Reason", reason == null ? "" : reason);
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (String name : names) {
            Node node = state.node(name);
            if (node == null) {
                throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
            }
            if (transition == NodeTransition.RESUME
                    && !node.admin().down()
                    && !node.admin().drain()
                    && !node.admin().future()) {
                // slurmctld refuses to resume what is not DOWN, DRAIN or FUTURE.
                throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid node state specified");
            }
            if (transition == NodeTransition.FUTURE && state.view(node).runningJobs() > 0) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
        }
        Set<Integer> failed = new HashSet<>();
        for (String name : names) {
            records.add(new StateRecord.NodeStateChanged(
                    name, transition, reason == null ? "" : reason, caller.userName(), now));
            if (transition == NodeTransition.DOWN) {
                failJobsOn(state, name, now, records, effects, failed);
            }
        }
        return ControlResult.of(records, effects, null);
    }

    /** {@code scontrol create NodeName=...}: dynamic nodes, each absent until now. */
    public ControlResult<Void> create(
            ClusterView state, Caller caller, List<StateRecord.NodeCreated> wanted, long now) {
        if (!caller.isOperator()) {
            // Slurm answers node RPCs from non-operators with ESLURM_USER_ID_MISSING.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        Set<String> seen = new HashSet<>();
        List<StateRecord> records = new ArrayList<>();
        for (StateRecord.NodeCreated n : wanted) {
            if (state.node(n.name()) != null || !seen.add(n.name())) {
                throw new SlurmException(ErrorCode.INVALID_NODE_NAME, "Duplicate node name " + n.name());
            }
            try {
                NodeRegistration.inventory(n.equipment().gres());
            } catch (IllegalArgumentException e) {
                throw new SlurmException(ErrorCode.INVALID_GRES, e.getMessage());
            }
            records.add(
                    new StateRecord.NodeCreated(n.name(), n.endpoint(), n.equipment(), n.weight(), n.future(), now));
        }
        return ControlResult.of(records, List.of(), null);
    }

    /**
     * {@code scontrol delete NodeName=...}: only dynamic nodes, and only when no job runs there
     * (Slurm 22.05 refuses the rest the same way).
     */
    public ControlResult<Void> delete(ClusterView state, Caller caller, List<String> names, long now) {
        if (!caller.isOperator()) {
            // Slurm answers node RPCs from non-operators with ESLURM_USER_ID_MISSING.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        List<StateRecord> records = new ArrayList<>();
        for (String name : names) {
            Node node = state.node(name);
            if (node == null) {
                throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
            }
            if (!node.dynamic()) {
                throw new SlurmException(ErrorCode.INVALID_NODE_NAME, "Can't delete non-dynamic node " + name);
            }
            if (state.view(node).runningJobs() > 0) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
            records.add(new StateRecord.NodeDeleted(name, now));
        }
        return ControlResult.of(records, List.of(), null);
    }

    /** What the controller does for a requested state; the ones it does not carry out are refused. */
    private static NodeTransition transition(Optional<NodeStateRequest> asked) {
        return switch (asked.orElse(null)) {
            case DRAIN -> NodeTransition.DRAIN;
            case DOWN -> NodeTransition.DOWN;
            case RESUME, IDLE -> NodeTransition.RESUME;
            case UNDRAIN -> NodeTransition.UNDRAIN;
            case FUTURE -> NodeTransition.FUTURE;
            case null, default -> throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid node state specified");
        };
    }

    /**
     * Periodic check: nodes silent for longer than SlurmdTimeout go DOWN with reason
     * {@code Not responding}, and the jobs they ran end as NODE_FAIL.
     */
    public ControlResult<Void> checkSilence(ClusterView state, long now) {
        if (slurmdTimeoutSeconds <= 0) {
            // SlurmdTimeout=0: Slurm never marks a silent node DOWN.
            return ControlResult.answer(null);
        }
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        List<SoftChange> soft = new ArrayList<>();
        Set<Integer> failed = new HashSet<>();
        for (Node node : state.nodes()) {
            String name = node.name();
            if (!state.isResponding(name) || now - state.lastHeard(name) <= slurmdTimeoutSeconds) {
                continue;
            }
            soft.add(new SoftChange.NodeSilent(name));
            if (!node.admin().down() && node.admin().reason().isEmpty()) {
                records.add(new StateRecord.NodeStateChanged(
                        name, NodeTransition.DOWN, NOT_RESPONDING, policy.slurmUser(), now));
            } else if (!node.admin().down()) {
                // As slurmctld: a reason already given (a drain) is kept, so the administrator's
                // words survive and ReturnToService=1 will not bring it back by itself.
                records.add(new StateRecord.NodeStateChanged(
                        name,
                        NodeTransition.DOWN,
                        node.admin().reason(),
                        node.admin().reasonUser(),
                        node.admin().reasonTime()));
            }
            failJobsOn(state, name, now, records, effects, failed);
        }
        return new ControlResult<>(records, soft, effects, null);
    }

    /** @param failed jobs already failed in this decision: a job on two failed nodes fails once */
    private static void failJobsOn(
            ClusterView state,
            String node,
            long now,
            List<StateRecord> records,
            List<Effect> effects,
            Set<Integer> failed) {
        for (Job job : state.jobs()) {
            if (job.isRunning() && job.allocation().nodeNames().contains(node) && failed.add(job.id())) {
                Transition ended = JobLifecycle.apply(job, new JobEvent.NodeFailed(), now);
                records.addAll(ended.records());
                effects.addAll(ended.effects());
            }
        }
    }
}
