package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresInventory;
import java.util.List;

/**
 * A node's durable record: identity, resources and the administrative part of its state
 * (DOWN, DRAIN, FUTURE with reason). Whether it responds is soft state kept beside it in
 * {@link ClusterState}, never journaled (as Kafka keeps heartbeats out of its log).
 */
public record Node(
        String name,
        String hostname,
        String addr,
        int port,
        NodeHardware hardware,
        List<String> features,
        GresInventory gres,
        int weight,
        boolean dynamic,
        boolean registered,
        boolean down,
        boolean drain,
        boolean future,
        String reason,
        String reasonUser,
        long reasonTime,
        long bootTime,
        String version,
        NodeFacts facts) {

    public Node {
        requireNonNull(name, "name is null");
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(reasonUser, "reasonUser is null");
        requireNonNull(version, "version is null");
        requireNonNull(facts, "facts is null");
    }

    public static Node configured(
            String name,
            String hostname,
            String addr,
            int port,
            NodeHardware hw,
            List<String> features,
            GresInventory gres,
            int weight,
            boolean future) {
        return new Node(
                name,
                hostname,
                addr,
                port,
                hw,
                features,
                gres,
                weight,
                false,
                false,
                false,
                false,
                future,
                "",
                "",
                0,
                0,
                "",
                NodeFacts.NONE);
    }

    /** {@code scontrol create NodeName=...}: a dynamic node no daemon has registered yet. */
    public static Node created(
            String name,
            String hostname,
            String addr,
            int port,
            NodeHardware hw,
            List<String> features,
            GresInventory gres,
            int weight,
            boolean future) {
        return new Node(
                name,
                hostname,
                addr,
                port,
                hw,
                features,
                gres,
                weight,
                true,
                false,
                false,
                false,
                future,
                "",
                "",
                0,
                0,
                "",
                NodeFacts.NONE);
    }

    public Node withRegistration(
            String newHostname, String newAddr, int newPort, NodeHardware hw, boolean dyn, long boot, String ver) {
        return withRegistration(newHostname, newAddr, newPort, hw, dyn, boot, ver, facts);
    }

    public Node withRegistration(
            String newHostname,
            String newAddr,
            int newPort,
            NodeHardware hw,
            boolean dyn,
            long boot,
            String ver,
            NodeFacts newFacts) {
        return new Node(
                name,
                newHostname,
                newAddr,
                newPort,
                hw,
                features,
                gres,
                weight,
                dyn,
                true,
                down,
                drain,
                false,
                reason,
                reasonUser,
                reasonTime,
                boot,
                ver,
                newFacts);
    }

    public Node withFuture(boolean newFuture) {
        return new Node(
                name,
                hostname,
                addr,
                port,
                hardware,
                features,
                gres,
                weight,
                dynamic,
                registered,
                down,
                drain,
                newFuture,
                reason,
                reasonUser,
                reasonTime,
                bootTime,
                version,
                facts);
    }

    /** A dynamic node's own {@code Feature=} and {@code Gres=} (from {@code -Z --conf}). */
    public Node withDynamicConfig(List<String> newFeatures, GresInventory newGres) {
        return new Node(
                name,
                hostname,
                addr,
                port,
                hardware,
                newFeatures,
                newGres,
                weight,
                dynamic,
                registered,
                down,
                drain,
                future,
                reason,
                reasonUser,
                reasonTime,
                bootTime,
                version,
                facts);
    }

    public Node withAdmin(boolean newDown, boolean newDrain, String newReason, String user, long time) {
        return new Node(
                name,
                hostname,
                addr,
                port,
                hardware,
                features,
                gres,
                weight,
                dynamic,
                registered,
                newDown,
                newDrain,
                future,
                newReason,
                user,
                time,
                bootTime,
                version,
                facts);
    }
}
