package dev.sluice.packaging;

import java.nio.file.Path;
import java.util.List;

/**
 * The files of a local development cluster under its state directory, and the configuration
 * text written there. Pure: {@link #slurmConf} and friends only build strings.
 *
 * <p>A port is {@link #UNBOUND} until the daemon that binds it has said which
 * ({@code --ports-file}): the files then name none, and {@link LocalClusterFiles#stampPorts}
 * writes the real one in once known ({@link #withPorts}).
 *
 * @param ctldPort command socket (SlurmctldPort)
 * @param grpcPort the controller's daemon gRPC port (sluice.conf)
 * @param nodePorts one slurmd port per node ({@link #UNBOUND}: no {@code Port=}, the node
 *     daemon registers the port it bound)
 * @param dbdPort sluice-dbd's command port (its gRPC port is 100 above), 0 for no accounting
 * @param mpsPerGpu MPS share count of each fake GPU (0: no {@code mps} GRES)
 */
public record LocalClusterLayout(
        Path stateDir,
        int nodes,
        int cpus,
        int threadsPerCore,
        long memoryMb,
        int gpus,
        int ctldPort,
        int grpcPort,
        List<Integer> nodePorts,
        int dbdPort,
        int mpsPerGpu) {

    /** A port its daemon picks at start and reports (started on port 0). */
    public static final int UNBOUND = -1;

    /** A cluster without MPS. */
    public LocalClusterLayout(
            Path stateDir,
            int nodes,
            int cpus,
            int threadsPerCore,
            long memoryMb,
            int gpus,
            int ctldPort,
            int grpcPort,
            List<Integer> nodePorts,
            int dbdPort) {
        this(stateDir, nodes, cpus, threadsPerCore, memoryMb, gpus, ctldPort, grpcPort, nodePorts, dbdPort, 0);
    }

    /** The same cluster without an accounting daemon. */
    public LocalClusterLayout(
            Path stateDir,
            int nodes,
            int cpus,
            int threadsPerCore,
            long memoryMb,
            int gpus,
            int ctldPort,
            int grpcPort,
            List<Integer> nodePorts) {
        this(stateDir, nodes, cpus, threadsPerCore, memoryMb, gpus, ctldPort, grpcPort, nodePorts, 0, 0);
    }

    /** This cluster with the ports its controller and accounting daemon reported. */
    public LocalClusterLayout withPorts(int ctld, int grpc, int dbd) {
        return new LocalClusterLayout(
                stateDir, nodes, cpus, threadsPerCore, memoryMb, gpus, ctld, grpc, nodePorts, dbd, mpsPerGpu);
    }

    /** This cluster with the ports its node daemons reported. */
    public LocalClusterLayout withNodePorts(List<Integer> ports) {
        return new LocalClusterLayout(
                stateDir, nodes, cpus, threadsPerCore, memoryMb, gpus, ctldPort, grpcPort, ports, dbdPort, mpsPerGpu);
    }

    /** Where the daemon of that name ({@code ctld}, {@code dbd}, a node's) reports its ports. */
    public Path portsFile(String daemon) {
        return runDir().resolve(daemon + ".ports");
    }

    public Path etc() {
        return stateDir.resolve("etc");
    }

    public Path slurmConfPath() {
        return etc().resolve("slurm.conf");
    }

    public Path fakeGpuDir(String node) {
        return stateDir.resolve("fakegpu").resolve(node);
    }

    public Path logDir() {
        return stateDir.resolve("log");
    }

    public Path runDir() {
        return stateDir.resolve("run");
    }

    public static String nodeName(int index) {
        return "node" + index;
    }

    public String slurmConf() {
        StringBuilder s = new StringBuilder();
        s.append("# Written by `sluice up`; rewritten at every start.\n");
        s.append("ClusterName=sluice\n");
        s.append("SlurmctldHost=localhost(127.0.0.1)\n");
        // Every daemon and its metrics listen on loopback only: the controller on its
        // SlurmctldHost address, each node daemon on its NodeAddr.
        s.append("CommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n");
        if (ctldPort != UNBOUND) {
            s.append("SlurmctldPort=").append(ctldPort).append('\n');
        } else {
            // The daemons start on port 0: no port is guessed free before its daemon holds it.
            s.append("# The daemons' ports follow once they have bound them (`sluice up` starts them on port 0).\n");
        }
        s.append("StateSaveLocation=").append(stateDir.resolve("ctld")).append('\n');
        s.append("SlurmdSpoolDir=").append(stateDir.resolve("spool")).append("/%n\n");
        s.append("SlurmdTimeout=60\n");
        // Whoever runs the local cluster administers it, as SlurmUser does a real one.
        s.append("SlurmUser=").append(System.getProperty("user.name")).append('\n');
        // Nodes come back by themselves after a restart; the lab's nodes claim more CPUs than
        // the machine has, which config_overrides accepts (GRES are still checked).
        s.append("ReturnToService=1\n");
        s.append("SlurmdParameters=config_overrides\n");
        s.append("SlurmctldParameters=enable_configless\n");
        // Tokens for the REST daemon and for SLURM_JWT: scontrol token mints them with this key.
        s.append("AuthAltTypes=auth/jwt\n");
        s.append("AuthAltParameters=jwt_key=").append(jwtKeyPath()).append('\n');
        s.append("KillWait=10\n");
        s.append("MinJobAge=300\n");
        s.append("SelectType=select/cons_tres\n");
        s.append("SelectTypeParameters=CR_Core\n");
        s.append("ProctrackType=proctrack/linuxproc\n");
        s.append("TaskPlugin=task/none\n");
        if (dbdPort != 0) {
            s.append("AccountingStorageType=accounting_storage/slurmdbd\n");
            s.append("AccountingStorageHost=127.0.0.1\n");
            if (dbdPort != UNBOUND) {
                s.append("AccountingStoragePort=").append(dbdPort).append('\n');
            }
            s.append("AccountingStorageTRES=gres/gpu\n");
        }
        if (gpus > 0) {
            s.append(mpsPerGpu > 0 ? "GresTypes=gpu,mps\n" : "GresTypes=gpu\n");
        }
        int cores = cpus / threadsPerCore;
        for (int i = 1; i <= nodes; i++) {
            s.append("NodeName=")
                    .append(nodeName(i))
                    .append(" NodeHostname=localhost NodeAddr=127.0.0.1")
                    .append(nodePorts.get(i - 1) == UNBOUND ? "" : " Port=" + nodePorts.get(i - 1))
                    .append(" CPUs=")
                    .append(cpus)
                    .append(" Sockets=1 CoresPerSocket=")
                    .append(cores)
                    .append(" ThreadsPerCore=")
                    .append(threadsPerCore)
                    .append(" RealMemory=")
                    .append(memoryMb);
            if (gpus > 0) {
                s.append(" Gres=gpu:").append(gpus);
                if (mpsPerGpu > 0) {
                    s.append(",mps:").append((long) gpus * mpsPerGpu);
                }
            }
            s.append(" State=UNKNOWN\n");
        }
        s.append("PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
        if (gpus > 0) {
            s.append("PartitionName=gpu Nodes=ALL MaxTime=INFINITE State=UP\n");
        }
        return s.toString();
    }

    /** sluice-dbd's file: loopback only; ports and data directory are on its command line. */
    public String slurmdbdConf() {
        return "# Written by `sluice up`; ports and the data directory are on sluice-dbd's command line.\n"
                + "DbdHost=localhost\n"
                + "DbdAddr=127.0.0.1\n"
                + "CommunicationParameters=NoInAddrAny\n"
                // The same token key as the controller's: sacct with SLURM_JWT, and the REST daemon.
                + "AuthAltTypes=auth/jwt\n"
                + "AuthAltParameters=jwt_key=" + jwtKeyPath() + "\n";
    }

    public String gresConf() {
        StringBuilder s = new StringBuilder("# Fake GPUs: device files made by `sluice up`.\nAutoDetect=off\n");
        for (int i = 1; i <= nodes && gpus > 0; i++) {
            String node = nodeName(i);
            s.append("NodeName=")
                    .append(node)
                    .append(" Name=gpu Count=")
                    .append(gpus)
                    .append(" File=")
                    .append(fakeGpuDir(node))
                    .append("/gpu")
                    .append(gpus == 1 ? "0" : "[0-" + (gpus - 1) + "]")
                    .append('\n');
            // MPS shares bound to each GPU, one line per device, as Slurm's gres.conf examples do.
            for (int g = 0; g < gpus && mpsPerGpu > 0; g++) {
                s.append("NodeName=")
                        .append(node)
                        .append(" Name=mps Count=")
                        .append(mpsPerGpu)
                        .append(" File=")
                        .append(fakeGpuDir(node))
                        .append("/gpu")
                        .append(g)
                        .append('\n');
            }
        }
        return s.toString();
    }

    public String sluiceConf() {
        return grpcPort == UNBOUND ? "" : "SlurmctldGrpcPort=" + grpcPort + "\n";
    }

    /**
     * What {@code source sluice.env} gives a shell: the repository's {@code bin/} on PATH, and,
     * when the native front end was built, {@link #commandLinks()} before it.
     */
    public String env(Path binDir, boolean nativeLinks) {
        String path = nativeLinks ? commandLinks() + "':'" + binDir : binDir.toString();
        return "# source this file to use the local Sluice cluster\n"
                + "export SLURM_CONF='" + slurmConfPath() + "'\n"
                + "export SLUICE_STATE_DIR='" + stateDir + "'\n"
                + "export SLUICE_AGENT_SOCKET='" + agentSocket() + "'\n"
                // The front end's fallback (no agent): bin/_sluice-java runs the command in a JVM.
                + (nativeLinks ? "export SLUICE_BIN='" + binDir + "'\n" : "")
                + "export PATH='" + path + "':\"$PATH\"\n";
    }

    /**
     * {@code sbatch}, {@code squeue}, ... as links to the native front end itself, which takes the
     * command from its own name: a call then starts one small process instead of a shell that
     * starts it (about 1.5 ms less per call on these machines).
     */
    public Path commandLinks() {
        return stateDir.resolve("bin");
    }

    /** The {@code auth/jwt} key of the generated configuration, owner-only like the cluster key. */
    public Path jwtKeyPath() {
        return etc().resolve("jwt_hs256.key");
    }

    /** Where {@code ./sluice up}'s sluice-agent listens; the commands find it through the env file. */
    public Path agentSocket() {
        return runDir().resolve("agent.sock");
    }
}
