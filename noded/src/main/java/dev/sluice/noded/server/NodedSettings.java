package dev.sluice.noded.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.protocol.v1.GresFound;
import dev.sluice.protocol.v1.NodeHardware;
import java.util.List;

/**
 * How one node daemon runs: its name and address, the resources it reports, where it spools,
 * and where the controller listens.
 *
 * @param port the NodeControl gRPC port; 0 binds an ephemeral one
 * @param hardware what the node is configured to have (its slurm.conf line or {@code --conf})
 * @param detected what the hardware probe found on this machine
 * @param gresFound what GRES discovery found (only names it could check)
 * @param slurmUser the controller's account (SlurmUser), whose credentials this daemon obeys
 * @param prolog slurm.conf's {@code Prolog=} programs, run as root before each batch job
 * @param epilog slurm.conf's {@code Epilog=} programs, run as root after it
 * @param taskPlugin slurm.conf's {@code TaskPlugin} list: whether jobs are bound to their CPUs
 * @param confinement what job cgroups enforce (cgroup.conf and TaskPlugin)
 * @param gresDevices this node's GRES device files by index, for device isolation
 */
public record NodedSettings(
        String nodeName,
        String hostname,
        String addr,
        String bindHost,
        int port,
        NodeHardware hardware,
        boolean dynamic,
        String spoolDir,
        String controllerHost,
        int controllerGrpcPort,
        NodeHardware detected,
        List<GresFound> gresFound,
        String slurmUser,
        List<String> prolog,
        List<String> epilog,
        List<String> taskPlugin,
        ConfinementPolicy confinement,
        GresDevices gresDevices) {

    public NodedSettings {
        requireNonNull(nodeName, "nodeName is null");
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
        requireNonNull(hardware, "hardware is null");
        requireNonNull(spoolDir, "spoolDir is null");
        requireNonNull(controllerHost, "controllerHost is null");
        requireNonNull(detected, "detected is null");
        gresFound = List.copyOf(gresFound);
        requireNonNull(slurmUser, "slurmUser is null");
        prolog = List.copyOf(prolog);
        epilog = List.copyOf(epilog);
        taskPlugin = List.copyOf(taskPlugin);
        requireNonNull(confinement, "confinement is null");
        requireNonNull(gresDevices, "gresDevices is null");
    }
}
