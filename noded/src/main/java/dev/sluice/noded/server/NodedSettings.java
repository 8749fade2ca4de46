package dev.sluice.noded.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.conf.PrologFlags;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.protocol.v1.GresFound;
import dev.sluice.protocol.v1.NodeHardware;
import java.util.List;

/**
 * How one node daemon runs: its name and address, the resources it reports, where the
 * controller listens, and how it runs jobs.
 */
public record NodedSettings(Node node, Resources resources, Controller controller, Jobs jobs) {

    public NodedSettings {
        requireNonNull(node, "node is null");
        requireNonNull(resources, "resources is null");
        requireNonNull(controller, "controller is null");
        requireNonNull(jobs, "jobs is null");
    }

    /**
     * @param addr the address it registers (empty: the controller takes the one the registration
     *     comes from)
     * @param bindHost the address it listens on
     * @param port the NodeControl gRPC port; 0 binds an ephemeral one
     * @param dynamic whether it joins as a node slurm.conf does not list ({@code slurmd -Z})
     */
    public record Node(String nodeName, String hostname, String addr, String bindHost, int port, boolean dynamic) {
        public Node {
            requireNonNull(nodeName, "nodeName is null");
            requireNonNull(hostname, "hostname is null");
            requireNonNull(addr, "addr is null");
        }
    }

    /**
     * @param hardware what the node is configured to have (its slurm.conf line or {@code --conf})
     * @param detected what the hardware probe found on this machine
     * @param gresFound what GRES discovery found (only names it could check)
     * @param gresDevices this node's GRES device files by index, for device isolation
     */
    public record Resources(
            NodeHardware hardware, NodeHardware detected, List<GresFound> gresFound, GresDevices gresDevices) {
        public Resources {
            requireNonNull(hardware, "hardware is null");
            requireNonNull(detected, "detected is null");
            gresFound = List.copyOf(gresFound);
            requireNonNull(gresDevices, "gresDevices is null");
        }
    }

    /**
     * @param host where the controller's daemon port listens
     * @param grpcPort that port
     * @param slurmUser the controller's account (SlurmUser), whose credentials this daemon obeys
     */
    public record Controller(String host, int grpcPort, String slurmUser) {
        public Controller {
            requireNonNull(host, "host is null");
            requireNonNull(slurmUser, "slurmUser is null");
        }
    }

    /**
     * @param spoolDir where job scripts and state are kept (SlurmdSpoolDir)
     * @param prolog slurm.conf's {@code Prolog=} programs, run as root before each batch job
     * @param epilog slurm.conf's {@code Epilog=} programs, run as root after it
     * @param taskPlugin slurm.conf's {@code TaskPlugin} list: whether jobs are bound to their CPUs
     * @param confinement what job cgroups enforce (cgroup.conf and TaskPlugin)
     * @param prologFlags slurm.conf's {@code PrologFlags}
     */
    public record Jobs(
            String spoolDir,
            List<String> prolog,
            List<String> epilog,
            List<String> taskPlugin,
            ConfinementPolicy confinement,
            PrologFlags prologFlags) {
        public Jobs {
            requireNonNull(spoolDir, "spoolDir is null");
            requireNonNull(prologFlags, "prologFlags is null");
            prolog = List.copyOf(prolog);
            epilog = List.copyOf(epilog);
            taskPlugin = List.copyOf(taskPlugin);
            requireNonNull(confinement, "confinement is null");
        }
    }

    /** The node's name, which the daemon goes by everywhere. */
    public String nodeName() {
        return node.nodeName();
    }
}
