package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.gres.GresInventory;
import java.util.List;
import java.util.Optional;

/**
 * A node's durable record: identity, resources, the administrative part of its state ({@link
 * NodeAdmin}: DOWN, FUTURE, DRAIN with reason) and the {@link DaemonReport} of its last
 * registration (empty until a daemon has registered).
 * Whether it responds is soft state kept beside it in {@link ClusterState}, never journaled (as
 * Kafka keeps heartbeats out of its log).
 *
 * <p>Readers take what the parts hold through the part ({@code node.endpoint().hostname()},
 * {@code node.admin().down()}); the accessors below the components derive values from the
 * optional daemon report.
 */
public record Node(
        String name,
        NodeEndpoint endpoint,
        NodeHardware hardware,
        List<String> features,
        GresInventory gres,
        int weight,
        boolean dynamic,
        NodeAdmin admin,
        Optional<DaemonReport> daemon) {

    public Node {
        requireNonNull(name, "name is null");
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
        requireNonNull(admin, "admin is null");
        requireNonNull(daemon, "daemon is null");
    }

    /** A slurm.conf node, up, that no daemon has registered yet. */
    public static Node configured(
            String name,
            NodeEndpoint endpoint,
            NodeHardware hw,
            List<String> features,
            GresInventory gres,
            int weight) {
        return new Node(name, endpoint, hw, features, gres, weight, false, NodeAdmin.UP, Optional.empty());
    }

    /** {@code scontrol create NodeName=...}: a dynamic node no daemon has registered yet. */
    public static Node created(
            String name,
            NodeEndpoint endpoint,
            NodeHardware hw,
            List<String> features,
            GresInventory gres,
            int weight) {
        return new Node(name, endpoint, hw, features, gres, weight, true, NodeAdmin.UP, Optional.empty());
    }

    public boolean registered() {
        return daemon.isPresent();
    }

    public long bootTime() {
        return daemon.map(DaemonReport::bootTime).orElse(0L);
    }

    public String version() {
        return daemon.map(DaemonReport::version).orElse("");
    }

    public NodeFacts facts() {
        return daemon.map(DaemonReport::facts).orElse(NodeFacts.NONE);
    }

    /**
     * A daemon registered from that address with that hardware: it replaces what the last one
     * reported, and a FUTURE node comes into service (DOWN and DRAIN stay).
     */
    public Node withRegistration(NodeEndpoint newEndpoint, NodeHardware hw, boolean dyn, DaemonReport report) {
        NodeAdmin inService = admin.future() ? admin.withBase(NodeState.IDLE) : admin;
        return new Node(name, newEndpoint, hw, features, gres, weight, dyn, inService, Optional.of(report));
    }

    /** A dynamic node's own {@code Feature=} and {@code Gres=} (from {@code -Z --conf}). */
    public Node withDynamicConfig(List<String> newFeatures, GresInventory newGres) {
        return new Node(name, endpoint, hardware, newFeatures, newGres, weight, dynamic, admin, daemon);
    }

    public Node withAdmin(NodeAdmin newAdmin) {
        return new Node(name, endpoint, hardware, features, gres, weight, dynamic, newAdmin, daemon);
    }
}
