package dev.sluice.ctld.config;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assembles a {@link CtldConfig} one setting at a time. The cluster name, control host,
 * StateSaveLocation, scheduler and show-config report must be set; the rest default to none
 * (zero, empty), with ReturnToService=0 and no dynamic nodes, and with a cluster key made up for
 * this process alone and the default command rules: nothing outside the process can then
 * authenticate, so only the Unix command socket (peer credentials) reaches such a controller.
 */
public final class CtldConfigBuilder {
    private String clusterName;
    private String controlHost;
    private int slurmctldPort;
    private int grpcPort;
    private boolean portsAsFiles = true;
    private String stateSaveLocation;
    private int slurmdTimeoutSeconds;
    private int killWaitSeconds;
    private int minJobAgeSeconds;
    private int firstJobId = 1;
    private int maxArraySize;
    private boolean memoryConsumable;
    private long defMemPerCpuMb;
    private Set<String> gresNames = Set.of();
    private SchedulerConfig scheduler;
    private List<Node> nodes = List.of();
    private List<Partition> partitions = List.of();
    private List<DynamicMembership> memberships = List.of();
    private NodePolicy nodePolicy = NodePolicy.DEFAULT;
    private Map<String, byte[]> configFiles = Map.of();
    private Map<String, String> settings = Map.of();
    private ShowConfig showConfig;
    private ClusterKeys clusterKeys;
    private CommandSecurity security;

    CtldConfigBuilder() {}

    CtldConfigBuilder(CtldConfig c) {
        CtldConfig.Controller id = c.controller();
        clusterName = id.clusterName();
        controlHost = id.controlHost();
        slurmctldPort = id.slurmctldPort();
        grpcPort = id.grpcPort();
        portsAsFiles = id.portsAsFiles();
        stateSaveLocation = id.stateSaveLocation();
        slurmdTimeoutSeconds = c.timers().slurmdTimeoutSeconds();
        killWaitSeconds = c.timers().killWaitSeconds();
        minJobAgeSeconds = c.timers().minJobAgeSeconds();
        firstJobId = c.jobs().firstJobId();
        maxArraySize = c.jobs().maxArraySize();
        memoryConsumable = c.jobs().memoryConsumable();
        defMemPerCpuMb = c.jobs().defMemPerCpuMb();
        gresNames = c.jobs().gresNames();
        scheduler = c.scheduler();
        nodes = c.topology().nodes();
        partitions = c.topology().partitions();
        memberships = c.topology().memberships();
        nodePolicy = c.topology().nodePolicy();
        configFiles = c.files().configFiles();
        settings = c.files().settings();
        showConfig = c.files().showConfig();
        clusterKeys = c.access().clusterKeys();
        security = c.access().security();
    }

    public CtldConfigBuilder clusterName(String v) {
        clusterName = v;
        return this;
    }

    public CtldConfigBuilder controlHost(String v) {
        controlHost = v;
        return this;
    }

    /** The commands' port; 0: one the kernel picks. */
    public CtldConfigBuilder slurmctldPort(int v) {
        slurmctldPort = v;
        return this;
    }

    /** The daemons' gRPC port; 0: one the kernel picks. */
    /** False where the ports were given on the command line rather than read from the files. */
    public CtldConfigBuilder portsAsFiles(boolean v) {
        portsAsFiles = v;
        return this;
    }

    public CtldConfigBuilder grpcPort(int v) {
        grpcPort = v;
        return this;
    }

    public CtldConfigBuilder stateSaveLocation(String v) {
        stateSaveLocation = v;
        return this;
    }

    public CtldConfigBuilder slurmdTimeoutSeconds(int v) {
        slurmdTimeoutSeconds = v;
        return this;
    }

    public CtldConfigBuilder killWaitSeconds(int v) {
        killWaitSeconds = v;
        return this;
    }

    public CtldConfigBuilder minJobAgeSeconds(int v) {
        minJobAgeSeconds = v;
        return this;
    }

    public CtldConfigBuilder firstJobId(int v) {
        firstJobId = v;
        return this;
    }

    public CtldConfigBuilder maxArraySize(int v) {
        maxArraySize = v;
        return this;
    }

    public CtldConfigBuilder memoryConsumable(boolean v) {
        memoryConsumable = v;
        return this;
    }

    public CtldConfigBuilder defMemPerCpuMb(long v) {
        defMemPerCpuMb = v;
        return this;
    }

    public CtldConfigBuilder gresNames(Set<String> v) {
        gresNames = v;
        return this;
    }

    public CtldConfigBuilder scheduler(SchedulerConfig v) {
        scheduler = v;
        return this;
    }

    public CtldConfigBuilder nodes(List<Node> v) {
        nodes = v;
        return this;
    }

    public CtldConfigBuilder partitions(List<Partition> v) {
        partitions = v;
        return this;
    }

    public CtldConfigBuilder memberships(List<DynamicMembership> v) {
        memberships = v;
        return this;
    }

    public CtldConfigBuilder nodePolicy(NodePolicy v) {
        nodePolicy = v;
        return this;
    }

    public CtldConfigBuilder configFiles(Map<String, byte[]> v) {
        configFiles = v;
        return this;
    }

    public CtldConfigBuilder settings(Map<String, String> v) {
        settings = v;
        return this;
    }

    public CtldConfigBuilder showConfig(ShowConfig v) {
        showConfig = v;
        return this;
    }

    public CtldConfigBuilder clusterKeys(ClusterKeys v) {
        clusterKeys = v;
        return this;
    }

    public CtldConfigBuilder security(CommandSecurity v) {
        security = v;
        return this;
    }

    /** @throws NullPointerException when a setting that must be set is not */
    public CtldConfig build() {
        return new CtldConfig(
                new CtldConfig.Controller(
                        clusterName, controlHost, slurmctldPort, grpcPort, stateSaveLocation, portsAsFiles),
                new CtldConfig.Timers(slurmdTimeoutSeconds, killWaitSeconds, minJobAgeSeconds),
                new CtldConfig.Jobs(firstJobId, maxArraySize, memoryConsumable, defMemPerCpuMb, gresNames),
                scheduler,
                new CtldConfig.Topology(nodes, partitions, memberships, nodePolicy),
                new CtldConfig.Files(configFiles, settings, showConfig),
                new CtldConfig.Access(
                        clusterKeys != null ? clusterKeys : CtldConfig.ephemeralKeys(),
                        security != null ? security : CommandSecurity.defaults(stateSaveLocation)));
    }
}
