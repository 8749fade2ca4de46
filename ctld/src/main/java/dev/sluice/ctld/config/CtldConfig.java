package dev.sluice.ctld.config;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything the controller takes from {@code slurm.conf}, typed and defaulted. Built once at
 * start-up (and on reconfigure) by {@link CtldConfigs}; the rest of the controller never sees
 * the file. Assembled with {@link #builder()}; {@link #toBuilder()} changes a part of one.
 *
 * @param controller who the controller is and where it listens
 * @param timers how long nodes and jobs are waited for
 * @param jobs what every job starts from
 * @param scheduler how jobs are picked and placed
 * @param topology the nodes, partitions and the rules for nodes that join
 * @param files the files as read and what they show
 * @param access who may speak to the controller
 */
public record CtldConfig(
        Controller controller,
        Timers timers,
        Jobs jobs,
        SchedulerConfig scheduler,
        Topology topology,
        Files files,
        Access access) {

    public CtldConfig {
        requireNonNull(controller, "controller is null");
        requireNonNull(timers, "timers is null");
        requireNonNull(jobs, "jobs is null");
        requireNonNull(scheduler, "scheduler is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(files, "files is null");
        requireNonNull(access, "access is null");
    }

    /**
     * @param slurmctldPort the commands' port (0: one the kernel picks, reported once bound)
     * @param grpcPort the daemons' gRPC port (0 likewise)
     * @param stateSaveLocation where the journal and snapshots live
     * @param portsAsFiles whether the two ports are the ones slurm.conf and sluice.conf name
     *     (false after {@code sluice-ctld --port}/{@code --grpc-port}: what the controller serves
     *     and reports then carries the ports it bound)
     */
    public record Controller(
            String clusterName,
            String controlHost,
            int slurmctldPort,
            int grpcPort,
            String stateSaveLocation,
            boolean portsAsFiles) {
        public Controller {
            requireNonNull(clusterName, "clusterName is null");
            requireNonNull(controlHost, "controlHost is null");
            requireNonNull(stateSaveLocation, "stateSaveLocation is null");
        }
    }

    /** SlurmdTimeout, KillWait and MinJobAge, in seconds. */
    public record Timers(int slurmdTimeoutSeconds, int killWaitSeconds, int minJobAgeSeconds) {}

    /**
     * @param firstJobId FirstJobId, at least 1
     * @param memoryConsumable whether SelectTypeParameters makes memory a consumable resource
     * @param gresNames every GRES name the cluster knows (GresTypes and the nodes' Gres)
     */
    public record Jobs(
            int firstJobId, int maxArraySize, boolean memoryConsumable, long defMemPerCpuMb, Set<String> gresNames) {
        public Jobs {
            gresNames = Set.copyOf(gresNames);
        }
    }

    /**
     * @param memberships which partitions take dynamic nodes
     * @param nodePolicy ReturnToService and config_overrides
     */
    public record Topology(
            List<Node> nodes, List<Partition> partitions, List<DynamicMembership> memberships, NodePolicy nodePolicy) {
        public Topology {
            nodes = List.copyOf(nodes);
            partitions = List.copyOf(partitions);
            memberships = List.copyOf(memberships);
            requireNonNull(nodePolicy, "nodePolicy is null");
        }
    }

    /**
     * @param configFiles configuration files served to configless node daemons: name → content
     *     (empty unless {@code SlurmctldParameters=enable_configless})
     * @param settings slurm.conf's {@code Key=Value} settings as written (keys case-insensitive)
     * @param showConfig what {@code scontrol show config} reports for this configuration
     */
    public record Files(Map<String, byte[]> configFiles, Map<String, String> settings, ShowConfig showConfig) {
        public Files {
            configFiles = Map.copyOf(configFiles);
            Map<String, String> s = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            s.putAll(settings);
            settings = Collections.unmodifiableMap(s);
            requireNonNull(showConfig, "showConfig is null");
        }
    }

    /**
     * @param clusterKeys {@code slurm.key} (or {@code slurm.jwks}) beside slurm.conf: what
     *     daemons and trusted signers authenticate with
     * @param security the user commands' access rules and limits
     */
    public record Access(ClusterKeys clusterKeys, CommandSecurity security) {
        public Access {
            requireNonNull(clusterKeys, "clusterKeys is null");
            requireNonNull(security, "security is null");
        }
    }

    /** An empty builder: see {@link CtldConfigBuilder} for what must be set and the defaults. */
    public static CtldConfigBuilder builder() {
        return new CtldConfigBuilder();
    }

    /** A builder holding this configuration. */
    public CtldConfigBuilder toBuilder() {
        return new CtldConfigBuilder(this);
    }

    public String clusterName() {
        return controller.clusterName();
    }

    public List<Node> nodes() {
        return topology.nodes();
    }

    public List<Partition> partitions() {
        return topology.partitions();
    }

    public CommandSecurity security() {
        return access.security();
    }

    /**
     * This configuration listening elsewhere than its files say: {@code sluice-ctld --port}
     * (0: ports the kernel picks, which the controller reports once bound).
     */
    public CtldConfig withPorts(int commandPort, int daemonsPort) {
        return toBuilder()
                .slurmctldPort(commandPort)
                .grpcPort(daemonsPort)
                .portsAsFiles(false)
                .build();
    }

    /**
     * slurm.conf {@code JobRequeue}: whether a batch job that gave neither {@code --requeue} nor
     * {@code --no-requeue} may be requeued (Slurm's default, 1, says it may).
     */
    public boolean jobRequeue() {
        String v = files.settings().get("JobRequeue");
        return v == null || !v.strip().equals("0");
    }

    /**
     * slurm.conf {@code AuthInfo=cred_expire=N}: how long a job credential lives. Slurm 22.05
     * also holds a requeued batch job back that long (and one second more), so that the new
     * run's credential is younger than the revocation of the old one. 120 by default; under 5
     * is refused (and the default used), as by Slurm.
     */
    public long credExpireSeconds() {
        return credExpireSeconds(files.settings().get("AuthInfo"));
    }

    /** {@link #credExpireSeconds()} of an {@code AuthInfo} value (null: none set). */
    static long credExpireSeconds(String v) {
        if (v != null) {
            for (String part : v.split(",")) {
                String p = part.strip();
                if (p.regionMatches(true, 0, "cred_expire=", 0, 12)) {
                    try {
                        long seconds = Long.parseLong(p.substring(12).strip());
                        return seconds < 5 ? DEFAULT_CRED_EXPIRE : seconds;
                    } catch (NumberFormatException e) {
                        return DEFAULT_CRED_EXPIRE;
                    }
                }
            }
        }
        return DEFAULT_CRED_EXPIRE;
    }

    /** Slurm 22.05's credential lifetime (slurm_cred.c DEFAULT_EXPIRATION_WINDOW). */
    public static final long DEFAULT_CRED_EXPIRE = 120;

    /** A random key known to this process only. */
    public static ClusterKeys ephemeralKeys() {
        byte[] secret = new byte[ClusterKeys.MIN_KEY_BYTES * 2];
        new java.security.SecureRandom().nextBytes(secret);
        return ClusterKeys.of(new ClusterKeys.Key("ephemeral", secret));
    }
}
