package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.gres.GresSpec;
import java.util.List;
import java.util.Optional;

/**
 * One node of {@code slurm.conf}, after {@code NodeName=DEFAULT} values, hostlist expansion and
 * Slurm's topology defaults were applied (see {@link NodeLines}). Built with {@link #builder}.
 *
 * @param name the node name Slurm uses ({@code NodeName})
 * @param address where its slurmd listens
 * @param hardware its CPUs, topology, memory and disk
 * @param gres its {@code Gres=}
 * @param features {@code Feature=}
 * @param weight scheduling weight, default 1
 * @param status its configured state, after {@code DownNodes} lines
 * @param spec resources kept back for the system ({@code CoreSpecCount}, {@code CPUSpecList},
 *     {@code MemSpecLimit})
 * @param source the {@code NodeName} line
 */
public record NodeConf(
        String name,
        Address address,
        Hardware hardware,
        Gres gres,
        List<String> features,
        long weight,
        Status status,
        Specialization spec,
        ConfSource source) {

    public NodeConf {
        requireNonNull(name, "name is null");
        requireNonNull(address, "address is null");
        requireNonNull(hardware, "hardware is null");
        requireNonNull(gres, "gres is null");
        features = List.copyOf(features);
        requireNonNull(status, "status is null");
        requireNonNull(spec, "spec is null");
        requireNonNull(source, "source is null");
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public boolean hasFeature(String feature) {
        return features.contains(feature);
    }

    /** The same node in another configured state ({@code DownNodes}). */
    public NodeConf withStatus(Status newStatus) {
        return new NodeConf(name, address, hardware, gres, features, weight, newStatus, spec, source);
    }

    /**
     * @param hostname the host the node runs on ({@code NodeHostname}, default the name)
     * @param addr the address to reach the node ({@code NodeAddr}, default the hostname)
     * @param port slurmd port ({@code Port}, default {@code SlurmdPort})
     */
    public record Address(String hostname, String addr, int port) {

        public Address {
            requireNonNull(hostname, "hostname is null");
            requireNonNull(addr, "addr is null");
        }
    }

    /**
     * @param cpus {@code CPUs}; default boards × sockets per board × cores × threads
     * @param realMemoryMb {@code RealMemory} in MB, default 1
     * @param tmpDiskMb {@code TmpDisk} in MB, default 0
     */
    public record Hardware(
            int cpus,
            int boards,
            int socketsPerBoard,
            int coresPerSocket,
            int threadsPerCore,
            long realMemoryMb,
            long tmpDiskMb) {

        /** Total sockets (boards × sockets per board), what {@code scontrol show node} prints as Sockets. */
        public int sockets() {
            return boards * socketsPerBoard;
        }
    }

    /**
     * @param raw the {@code Gres=} value as written, empty when none
     * @param specs {@code raw} parsed
     */
    public record Gres(String raw, List<GresSpec> specs) {

        public static final Gres NONE = new Gres("", List.of());

        public Gres {
            requireNonNull(raw, "raw is null");
            specs = List.copyOf(specs);
        }

        /** Total count of one name ({@code gpu}) over all types. */
        public long count(String gresName) {
            return specs.stream()
                    .filter(g -> g.name().equalsIgnoreCase(gresName))
                    .mapToLong(GresSpec::count)
                    .sum();
        }
    }

    /**
     * @param state configured state ({@code UNKNOWN}, {@code FUTURE}, {@code CLOUD}, {@code DOWN},
     *     ...), upper case
     * @param reason {@code Reason}, empty when none
     */
    public record Status(String state, String reason) {

        public Status {
            requireNonNull(state, "state is null");
            requireNonNull(reason, "reason is null");
        }

        public Optional<String> reasonIfAny() {
            return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
        }
    }

    /** Cores, CPUs and memory kept back for the system; 0 and empty when none. */
    public record Specialization(int coreSpecCount, String cpuSpecList, long memSpecLimitMb) {

        public static final Specialization NONE = new Specialization(0, "", 0);

        public Specialization {
            requireNonNull(cpuSpecList, "cpuSpecList is null");
        }
    }

    /** Assembles a {@link NodeConf}; anything not set has Slurm's default. */
    public static final class Builder {
        private final String name;
        private String hostname;
        private String addr;
        private int port;
        private int cpus = 1;
        private int boards = 1;
        private int socketsPerBoard = 1;
        private int coresPerSocket = 1;
        private int threadsPerCore = 1;
        private long realMemoryMb = 1;
        private long tmpDiskMb;
        private Gres gres = Gres.NONE;
        private List<String> features = List.of();
        private long weight = 1;
        private Status status = new Status("UNKNOWN", "");
        private Specialization spec = Specialization.NONE;
        private ConfSource source = new ConfSource("", 0);

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        public Builder hostname(String value) {
            this.hostname = value;
            return this;
        }

        public Builder addr(String value) {
            this.addr = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder cpus(int value) {
            this.cpus = value;
            return this;
        }

        public Builder boards(int value) {
            this.boards = value;
            return this;
        }

        public Builder socketsPerBoard(int value) {
            this.socketsPerBoard = value;
            return this;
        }

        public Builder coresPerSocket(int value) {
            this.coresPerSocket = value;
            return this;
        }

        public Builder threadsPerCore(int value) {
            this.threadsPerCore = value;
            return this;
        }

        public Builder realMemoryMb(long value) {
            this.realMemoryMb = value;
            return this;
        }

        public Builder tmpDiskMb(long value) {
            this.tmpDiskMb = value;
            return this;
        }

        public Builder gres(Gres value) {
            this.gres = value;
            return this;
        }

        public Builder features(List<String> value) {
            this.features = value;
            return this;
        }

        public Builder weight(long value) {
            this.weight = value;
            return this;
        }

        public Builder status(Status value) {
            this.status = value;
            return this;
        }

        public Builder spec(Specialization value) {
            this.spec = value;
            return this;
        }

        public Builder source(ConfSource value) {
            this.source = value;
            return this;
        }

        /** A missing hostname is the name; a missing address is the hostname. */
        public NodeConf build() {
            String host = hostname == null ? name : hostname;
            Address address = new Address(host, addr == null ? host : addr, port);
            Hardware hardware = new Hardware(
                    cpus, boards, socketsPerBoard, coresPerSocket, threadsPerCore, realMemoryMb, tmpDiskMb);
            return new NodeConf(name, address, hardware, gres, features, weight, status, spec, source);
        }
    }
}
