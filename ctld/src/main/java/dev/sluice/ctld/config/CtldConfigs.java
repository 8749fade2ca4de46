package dev.sluice.ctld.config;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.JwtConfig;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.PartitionConf;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.PriorityWeightsBuilder;
import dev.sluice.ctld.queue.QosPriorities;
import dev.sluice.ctld.sched.PreemptPolicy;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeAdmin;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.Partition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Derives the controller's {@link CtldConfig} from a parsed {@code slurm.conf}. */
public final class CtldConfigs {
    /** The daemon gRPC port sits this far above SlurmctldPort unless sluice.conf says otherwise. */
    public static final int GRPC_PORT_OFFSET = 100;

    private CtldConfigs() {}

    /**
     * @param grpcPort the daemons' gRPC port, or 0 for SlurmctldPort + {@value #GRPC_PORT_OFFSET}
     * @param files configuration files to serve to configless nodes (name → content)
     */
    public static CtldConfig from(SlurmConf conf, GresConf gresConf, int grpcPort, Map<String, byte[]> files)
            throws ConfigException {
        return from(conf, gresConf, grpcPort, files, CtldConfig.ephemeralKeys(), security(conf, Optional.empty()));
    }

    /**
     * @param keys the cluster key set ({@code ClusterKeys.loadFromConfigDir})
     * @param security from {@link #security}
     */
    public static CtldConfig from(
            SlurmConf conf,
            GresConf gresConf,
            int grpcPort,
            Map<String, byte[]> files,
            ClusterKeys keys,
            CommandSecurity security) {
        return from(conf, gresConf, CgroupConf.defaults(), grpcPort, files, keys, security);
    }

    /** @param cgroupConf cgroup.conf beside slurm.conf, which {@code scontrol show config} reports */
    public static CtldConfig from(
            SlurmConf conf,
            GresConf gresConf,
            CgroupConf cgroupConf,
            int grpcPort,
            Map<String, byte[]> files,
            ClusterKeys keys,
            CommandSecurity security) {
        List<Node> nodes = new ArrayList<>();
        Set<String> gresNames = new TreeSet<>(conf.gresTypes());
        for (NodeConf n : conf.nodes()) {
            boolean future = n.status().state().equalsIgnoreCase("FUTURE");
            GresInventory inventory = GresInventory.of(n.gres().specs(), gresConf.forNode(n.name()));
            inventory.units().forEach(u -> gresNames.add(u.name()));
            nodes.add(Node.configured(
                            n.name(),
                            new NodeEndpoint(
                                    n.address().hostname(),
                                    n.address().addr(),
                                    n.address().port()),
                            NodeHardware.configured(n.hardware()),
                            n.features(),
                            inventory,
                            (int) Math.min(Integer.MAX_VALUE, n.weight()))
                    .withAdmin(future ? NodeAdmin.FUTURE : NodeAdmin.UP));
        }
        List<Partition> partitions = new ArrayList<>();
        for (PartitionConf p : conf.partitions()) {
            Partition.Scheduling scheduling = new Partition.Scheduling(
                    p.scheduling().priorityTier(),
                    p.scheduling().priorityJobFactor(),
                    p.scheduling().overSubscribe(),
                    shownPreemptMode(conf, p),
                    p.scheduling().graceTimeSeconds());
            partitions.add(new Partition(
                    p.name(),
                    p.nodeNames(),
                    p.isDefault(),
                    p.state(),
                    p.access(),
                    Partition.Limits.of(p.limits()),
                    p.memory(),
                    scheduling));
        }
        boolean memory = conf.selectTypeParameters().stream()
                .anyMatch(s -> s.toUpperCase(Locale.ROOT).contains("MEMORY"));
        String host = conf.controlHostEntries().isEmpty()
                ? "localhost"
                : conf.controlHostEntries().get(0).name();
        int port = conf.slurmctldPort();
        return CtldConfig.builder()
                .clusterName(conf.clusterName())
                .controlHost(host)
                .slurmctldPort(port)
                .grpcPort(grpcPort > 0 ? grpcPort : port + GRPC_PORT_OFFSET)
                .stateSaveLocation(conf.stateSaveLocation())
                .slurmdTimeoutSeconds(conf.slurmdTimeoutSeconds())
                .killWaitSeconds(conf.killWaitSeconds())
                .minJobAgeSeconds(conf.minJobAgeSeconds())
                .firstJobId((int) Math.min(Integer.MAX_VALUE, Math.max(1, conf.firstJobId())))
                .maxArraySize((int) Math.min(Integer.MAX_VALUE, conf.maxArraySize()))
                .memoryConsumable(memory)
                .defMemPerCpuMb(conf.defMemPerCpuMb())
                .gresNames(gresNames)
                .scheduler(schedulerConfig(
                        conf,
                        new Scheduler.SelectDefaults(
                                memory,
                                conf.defMemPerCpuMb(),
                                gresNames,
                                !conf.enforcePartLimits().equals("NO"),
                                conf.licenses())))
                .nodes(nodes)
                .partitions(partitions)
                .memberships(memberships(conf))
                .nodePolicy(nodePolicy(conf))
                .configFiles(files)
                .settings(conf.values())
                .showConfig(ShowConfig.of(conf, cgroupConf, UserDb.system()))
                .clusterKeys(keys)
                .security(security)
                .build();
    }

    /**
     * The commands' access rules: {@code SlurmUser}, {@code PrivateData=jobs},
     * {@code SchedulerParameters=max_script_size=}, and with {@code AuthAltTypes=auth/jwt} the
     * key of {@code AuthAltParameters=jwt_key=} (default {@code jwt_hs256.key} in
     * StateSaveLocation, as Slurm's), which must exist and be private, as the cluster key.
     *
     * @param socket sluice.conf's CommandSocket, when set
     */
    public static CommandSecurity security(SlurmConf conf, Optional<String> socket) throws ConfigException {
        String file = "slurm.conf";
        Optional<UserTokens> tokens;
        try {
            tokens = JwtConfig.load(
                    conf.authAltTypes(), conf.authAltParameters(), Optional.of(Path.of(conf.stateSaveLocation())));
        } catch (AuthException | IllegalArgumentException e) {
            throw new ConfigException(file, 0, "AuthAltParameters", e.getMessage());
        }
        long maxScript = CommandSecurity.DEFAULT_MAX_SCRIPT_BYTES;
        for (String p : conf.schedulerParameters()) {
            String[] kv = p.split("=", 2);
            if (kv.length == 2 && kv[0].strip().equalsIgnoreCase("max_script_size")) {
                try {
                    maxScript = Long.parseLong(kv[1].strip());
                } catch (NumberFormatException e) {
                    throw new ConfigException(
                            file, 0, "SchedulerParameters", "max_script_size=" + kv[1] + " is not a number");
                }
                if (maxScript <= 0 || maxScript > dev.sluice.protocol.Frames.MAX_FRAME_BYTES / 2) {
                    throw new ConfigException(
                            file,
                            0,
                            "SchedulerParameters",
                            "max_script_size must be between 1 and " + dev.sluice.protocol.Frames.MAX_FRAME_BYTES / 2);
                }
            }
        }
        boolean privateJobs =
                conf.privateData().stream().anyMatch(v -> v.equalsIgnoreCase("jobs") || v.equalsIgnoreCase("all"));
        String path = socket.orElse(Path.of(conf.stateSaveLocation())
                .resolve(CommandSecurity.SOCKET_FILE)
                .toString());
        return new CommandSecurity(
                tokens, conf.slurmUser(), privateJobs, maxScript, CommandSecurity.DEFAULT_MAX_ENV_BYTES, path);
    }

    static NodePolicy nodePolicy(SlurmConf conf) {
        boolean overrides = conf.value("SlurmdParameters").stream()
                .flatMap(v -> java.util.Arrays.stream(v.split(",")))
                .anyMatch(p -> p.strip().equalsIgnoreCase("config_overrides"));
        return new NodePolicy(conf.returnToService(), overrides, conf.slurmUser());
    }

    /** Per partition: does it take dynamic nodes ({@code Nodes=ALL}), or those of a feature? */
    static List<DynamicMembership> memberships(SlurmConf conf) {
        Map<String, String> setFeatures = new java.util.HashMap<>();
        conf.nodeSets().forEach(ns -> ns.feature().ifPresent(f -> setFeatures.put(ns.name(), f)));
        List<DynamicMembership> out = new ArrayList<>();
        for (PartitionConf p : conf.partitions()) {
            boolean all = false;
            Set<String> features = new TreeSet<>();
            for (String item : p.members().exprItems()) {
                if (item.equalsIgnoreCase("ALL")) {
                    all = true;
                } else if (setFeatures.containsKey(item)) {
                    features.add(setFeatures.get(item));
                }
            }
            if (all || !features.isEmpty()) {
                out.add(new DynamicMembership(p.name(), all, features));
            }
        }
        return out;
    }

    /**
     * SchedulerType (sched/backfill, the default, or sched/builtin), the backfill knobs of
     * SchedulerParameters ({@code bf_max_job_test} = reservation depth, {@code bf_window} in
     * minutes) and the priority plugin with its weights.
     */
    static SchedulerConfig schedulerConfig(SlurmConf conf, Scheduler.SelectDefaults select) {
        boolean backfill = !conf.schedulerType().toLowerCase(Locale.ROOT).contains("builtin");
        int depth = 500;
        long window = 86400;
        for (String p : conf.schedulerParameters()) {
            String[] kv = p.split("=", 2);
            if (kv.length == 2 && kv[0].strip().equalsIgnoreCase("bf_max_job_test")) {
                depth = Integer.parseInt(kv[1].strip());
            } else if (kv.length == 2 && kv[0].strip().equalsIgnoreCase("bf_window")) {
                window = Long.parseLong(kv[1].strip()) * 60;
            }
        }
        boolean multifactor = conf.priorityType().toLowerCase(Locale.ROOT).contains("multifactor");
        long maxAge = seconds(conf.value("PriorityMaxAge").orElse("7-0"));
        long halfLife = seconds(conf.value("PriorityDecayHalfLife").orElse("7-0"));
        boolean favorSmall = conf.value("PriorityFavorSmall")
                .map(v -> v.equalsIgnoreCase("YES"))
                .orElse(false);
        PriorityWeights weights = PriorityWeightsBuilder.of(multifactor)
                .age(conf.priorityWeightAge())
                .fairshare(conf.priorityWeightFairshare())
                .jobSize(conf.priorityWeightJobSize())
                .partition(conf.priorityWeightPartition())
                .qos(conf.priorityWeightQos())
                .maxAgeSeconds(maxAge)
                .decayHalfLifeSeconds(halfLife)
                .favorSmall(favorSmall)
                .calcPeriodSeconds(seconds(conf.value("PriorityCalcPeriod").orElse("5")))
                .build();
        // The nodes read the same Prolog= lines: with none there is nothing to wait for.
        boolean prologWaited = conf.prologFlags().waited() && !conf.prolog().isEmpty();
        return new SchedulerConfig(
                backfill, depth, window, weights, select, QosPriorities.DEFAULT, preemptPolicy(conf), prologWaited);
    }

    /**
     * A partition's PreemptMode as Slurm shows it: its own, else the cluster's, in Slurm's words
     * ({@code OFF}, {@code CANCEL}, {@code REQUEUE}, {@code GANG,SUSPEND}).
     */
    static String shownPreemptMode(SlurmConf conf, PartitionConf p) {
        return p.scheduling().shownPreemptMode(conf.value("PreemptMode").orElse("OFF"));
    }

    /**
     * {@code PreemptType}, {@code PreemptMode} (cluster-wide and per partition, and whether it
     * names GANG), {@code PreemptExemptTime} and {@code SchedulerTimeSlice}; the reader has
     * already refused combinations Slurm refuses.
     */
    static PreemptPolicy preemptPolicy(SlurmConf conf) {
        PreemptPolicy.Type type =
                PreemptPolicy.Type.of(conf.value("PreemptType").orElse("preempt/none"));
        PreemptMode mode =
                PreemptMode.parse(conf.value("PreemptMode").orElse("OFF")).orElse(PreemptMode.OFF);
        Map<String, PreemptMode> partitionModes = new java.util.HashMap<>();
        for (PartitionConf p : conf.partitions()) {
            PreemptMode.parse(p.scheduling().preemptMode()).ifPresent(m -> partitionModes.put(p.name(), m));
        }
        long exempt = conf.value("PreemptExemptTime")
                .map(v -> TimeLimit.parseSeconds(v))
                .filter(v -> v != TimeLimit.INFINITE && v > 0)
                .orElse(0L);
        long holdBack = CtldConfig.credExpireSeconds(conf.value("AuthInfo").orElse(null)) + 1;
        boolean gang = java.util.Arrays.stream(
                        conf.value("PreemptMode").orElse("OFF").split(","))
                .anyMatch(w -> w.strip().equalsIgnoreCase("GANG"));
        long slice = conf.value("SchedulerTimeSlice")
                .map(String::strip)
                .filter(v -> v.matches("\\d+"))
                .map(Long::parseLong)
                .filter(v -> v > 0)
                .orElse(PreemptPolicy.DEFAULT_TIME_SLICE);
        return new PreemptPolicy(type, mode, partitionModes, exempt, holdBack, gang, slice, 0);
    }

    private static long seconds(String time) {
        long s = TimeLimit.parseSeconds(time);
        return s == TimeLimit.INFINITE ? Long.MAX_VALUE / 4 : s;
    }
}
