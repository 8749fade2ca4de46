package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.gres.GresInventory;
import java.util.List;

/**
 * A node's durable record: identity, resources, the administrative part of its state ({@link
 * NodeAdmin}: DOWN, FUTURE, DRAIN with reason) and what its daemon reported ({@link NodeDaemon}).
 * Whether it responds is soft state kept beside it in {@link ClusterState}, never journaled (as
 * Kafka keeps heartbeats out of its log).
 *
 * <p>The accessors below the components ({@link #hostname()}, {@link #down()}, ...) read through
 * to the parts, so readers need not know how the record is grouped.
 */
public record Node(
        String name,
        NodeAddress address,
        NodeHardware hardware,
        List<String> features,
        GresInventory gres,
        int weight,
        boolean dynamic,
        NodeAdmin admin,
        NodeDaemon daemon) {

    public Node {
        requireNonNull(name, "name is null");
        requireNonNull(address, "address is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
        requireNonNull(admin, "admin is null");
        requireNonNull(daemon, "daemon is null");
    }

    /** A slurm.conf node, up, that no daemon has registered yet. */
    public static Node configured(
            String name, NodeAddress address, NodeHardware hw, List<String> features, GresInventory gres, int weight) {
        return new Node(name, address, hw, features, gres, weight, false, NodeAdmin.UP, NodeDaemon.NONE);
    }

    /** {@code scontrol create NodeName=...}: a dynamic node no daemon has registered yet. */
    public static Node created(
            String name, NodeAddress address, NodeHardware hw, List<String> features, GresInventory gres, int weight) {
        return new Node(name, address, hw, features, gres, weight, true, NodeAdmin.UP, NodeDaemon.NONE);
    }

    public String hostname() {
        return address.hostname();
    }

    public String addr() {
        return address.addr();
    }

    public int port() {
        return address.port();
    }

    public boolean registered() {
        return daemon.registered();
    }

    public long bootTime() {
        return daemon.bootTime();
    }

    public String version() {
        return daemon.version();
    }

    public NodeFacts facts() {
        return daemon.facts();
    }

    public boolean down() {
        return admin.down();
    }

    public boolean drain() {
        return admin.drain();
    }

    public boolean future() {
        return admin.future();
    }

    public String reason() {
        return admin.reason();
    }

    public String reasonUser() {
        return admin.reasonUser();
    }

    public long reasonTime() {
        return admin.reasonTime();
    }

    /**
     * A daemon registered from that address with that hardware: it replaces what the last one
     * reported, and a FUTURE node comes into service (DOWN and DRAIN stay).
     */
    public Node withRegistration(NodeAddress newAddress, NodeHardware hw, boolean dyn, NodeDaemon newDaemon) {
        NodeAdmin inService = admin.future() ? admin.withBase(NodeState.IDLE) : admin;
        return new Node(name, newAddress, hw, features, gres, weight, dyn, inService, newDaemon);
    }

    /** A dynamic node's own {@code Feature=} and {@code Gres=} (from {@code -Z --conf}). */
    public Node withDynamicConfig(List<String> newFeatures, GresInventory newGres) {
        return new Node(name, address, hardware, newFeatures, newGres, weight, dynamic, admin, daemon);
    }

    public Node withAdmin(NodeAdmin newAdmin) {
        return new Node(name, address, hardware, features, gres, weight, dynamic, newAdmin, daemon);
    }
}
