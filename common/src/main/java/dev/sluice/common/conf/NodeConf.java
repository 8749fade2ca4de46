package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.gres.GresSpec;
import java.util.List;
import java.util.Optional;

/**
 * One node of {@code slurm.conf}, after {@code NodeName=DEFAULT} values, hostlist expansion and
 * Slurm's topology defaults were applied (see {@link NodeLines}).
 *
 * @param name the node name Slurm uses ({@code NodeName})
 * @param hostname the host the node runs on ({@code NodeHostname}, default the name)
 * @param addr the address to reach the node ({@code NodeAddr}, default the hostname)
 * @param port slurmd port ({@code Port}, default {@code SlurmdPort})
 * @param cpus {@code CPUs}; default boards × sockets per board × cores × threads
 * @param realMemoryMb {@code RealMemory} in MB, default 1
 * @param tmpDiskMb {@code TmpDisk} in MB, default 0
 * @param gres the raw {@code Gres=} value, empty when none
 * @param gresList {@code gres} parsed
 * @param weight scheduling weight, default 1
 * @param state configured state ({@code UNKNOWN}, {@code FUTURE}, {@code CLOUD}, {@code DOWN}, ...),
 *     upper case, after {@code DownNodes} lines
 * @param reason {@code Reason}, empty when none
 * @param file the file of the {@code NodeName} line
 * @param line its line number
 */
public record NodeConf(
        String name,
        String hostname,
        String addr,
        int port,
        int cpus,
        int boards,
        int socketsPerBoard,
        int coresPerSocket,
        int threadsPerCore,
        long realMemoryMb,
        long tmpDiskMb,
        String gres,
        List<GresSpec> gresList,
        List<String> features,
        long weight,
        String state,
        String reason,
        int coreSpecCount,
        String cpuSpecList,
        long memSpecLimitMb,
        String file,
        int line) {

    public NodeConf {
        requireNonNull(name, "name is null");
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
        requireNonNull(gres, "gres is null");
        gresList = List.copyOf(gresList);
        features = List.copyOf(features);
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(cpuSpecList, "cpuSpecList is null");
        requireNonNull(file, "file is null");
    }

    /** Total sockets (boards × sockets per board), what {@code scontrol show node} prints as Sockets. */
    public int sockets() {
        return boards * socketsPerBoard;
    }

    /** Total GRES count of one name ({@code gpu}) over all types. */
    public long gresCount(String gresName) {
        return gresList.stream()
                .filter(g -> g.name().equalsIgnoreCase(gresName))
                .mapToLong(GresSpec::count)
                .sum();
    }

    public boolean hasFeature(String feature) {
        return features.contains(feature);
    }

    public Optional<String> reasonIfAny() {
        return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
    }
}
