package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.ctld.control.NodeControl.Registration;
import dev.sluice.ctld.control.NodeControl.RegistrationAnswer;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A node daemon's registration: what the controller records of it, whether it has what it is
 * configured to have, and which of its jobs to launch again or report as orphans. Kept apart
 * from {@link NodeControl}'s administrative and liveness handlers because it is the one place
 * that reconciles a daemon's own account with the journal's.
 */
final class NodeRegistration {
    private final NodePolicy policy;

    NodeRegistration(NodePolicy policy) {
        this.policy = policy;
    }

    ControlResult<RegistrationAnswer> register(ClusterView state, Registration claimed, long now) {
        Node known = state.node(claimed.name());
        if (known == null && !claimed.dynamic()) {
            throw new SlurmException(
                    ErrorCode.INVALID_NODE_NAME, "Node " + claimed.name() + " not found in the configuration");
        }
        Registration reg = asCreated(known, claimed);
        List<StateRecord> records = new ArrayList<>();
        boolean ownConfig = reg.dynamic() && (known == null || known.dynamic());
        List<String> features = ownConfig ? reg.equipment().features() : List.of();
        for (String feature : features) {
            ControlCharacters.checked("AvailableFeatures", feature);
        }
        String gres = ownConfig ? reg.equipment().gres() : "";
        try {
            inventory(gres);
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_GRES, e.getMessage());
        }
        if (known == null || !known.registered() || changed(known, reg, features, gres)) {
            records.add(new StateRecord.NodeRegistered(
                    reg.name(),
                    reg.endpoint(),
                    new NodeEquipment(reg.equipment().hardware(), features, gres),
                    reg.daemon(),
                    // A created node stays dynamic (deletable) whatever its daemon says.
                    reg.dynamic() || (known != null && known.dynamic()),
                    now));
        }
        Optional<String> shortfall = reg.found().flatMap(found -> {
            boolean configured = known != null && !ownConfig;
            NodeHardware promised =
                    configured ? known.hardware() : reg.equipment().hardware();
            GresInventory promisedGres = configured ? known.gres() : inventory(gres);
            return RegistrationCheck.shortfall(promised, promisedGres, found, policy);
        });
        if (shortfall.isPresent()) {
            // Never accepted silently: drained, running work left alone, as slurmctld does.
            if (known == null
                    || !known.admin().drain()
                    || !known.admin().reason().equals(shortfall.get())) {
                records.add(new StateRecord.NodeStateChanged(
                        reg.name(), NodeTransition.DRAIN, shortfall.get(), policy.slurmUser(), now));
            }
        } else if (known != null && known.admin().down() && returnsToService(known)) {
            records.add(new StateRecord.NodeStateChanged(reg.name(), NodeTransition.RETURN, "", "", now));
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

    /**
     * A daemon started with {@code -N} for a node that {@code scontrol create} made (slurmd -N
     * for a FUTURE node) registers what it found on its machine, having no node line: the node
     * keeps the resources it was created with, and what was found is checked against them, as
     * for a node in slurm.conf.
     */
    private static Registration asCreated(Node known, Registration reg) {
        if (known == null || !known.dynamic() || reg.dynamic()) {
            return reg;
        }
        return new Registration(
                reg.name(),
                reg.endpoint(),
                new NodeEquipment(known.hardware(), List.of(), ""),
                reg.daemon(),
                false,
                reg.runningJobs(),
                reg.found());
    }

    /** ReturnToService: 1 only for nodes that were DOWN for not answering, 2 for any. */
    private boolean returnsToService(Node node) {
        return switch (policy.returnToService()) {
            case 2 -> true;
            case 1 -> node.admin().reason().equals(NodeControl.NOT_RESPONDING);
            default -> false;
        };
    }

    static GresInventory inventory(String gres) {
        return gres.isEmpty() ? GresInventory.NONE : GresInventory.of(GresSpec.parseNodeList(gres), List.of());
    }

    private static boolean changed(Node known, Registration reg, List<String> features, String gres) {
        return !known.endpoint().addr().equals(reg.endpoint().addr())
                || known.endpoint().port() != reg.endpoint().port()
                || !known.endpoint().hostname().equals(reg.endpoint().hostname())
                || !known.hardware().equals(reg.equipment().hardware())
                || known.bootTime() != reg.daemon().bootTime()
                || !known.version().equals(reg.daemon().version())
                || !known.facts().equals(reg.daemon().facts())
                || (known.dynamic() && !features.isEmpty() && !known.features().equals(features))
                || (known.dynamic() && !gres.isEmpty() && !known.gres().equals(inventory(gres)));
    }
}
