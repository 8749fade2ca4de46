package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.JobView;
import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.NodeInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code scontrol show node}: Slurm 22.05's layout, trailing spaces included. */
final class NodeShow {
    private NodeShow() {}

    static List<String> lines(NodeInfo n, ZoneId zone) {
        return lines(n, zone, false);
    }

    /** @param details {@code -d}: GresDrain and GresUsed after Gres */
    static List<String> lines(NodeInfo n, ZoneId zone, boolean details) {
        List<String> l = new ArrayList<>();
        l.add("NodeName=" + n.getName() + " Arch=" + JobView.orNull(n.getArch()) + " CoresPerSocket="
                + n.getCoresPerSocket() + " ");
        l.add("CPUAlloc=" + n.getAllocCpus() + " CPUEfctv=" + n.getCpus() + " CPUTot=" + n.getCpus() + " CPULoad="
                + String.format(Locale.ROOT, "%.2f", n.getCpuLoad()));
        String features = String.join(",", n.getFeaturesList());
        l.add("AvailableFeatures=" + JobView.orNull(features));
        l.add("ActiveFeatures=" + JobView.orNull(features));
        l.add("Gres=" + JobView.orNull(n.getGres()));
        if (details) {
            // Sluice drains no GRES apart from its node: N/A, what 22.05 prints then.
            l.add("GresDrain=N/A");
            l.add("GresUsed=" + JobView.orNull(n.getGresUsed()));
        }
        l.add("NodeAddr=" + (n.getAddr().isEmpty() ? n.getName() : n.getAddr()) + " NodeHostName="
                + (n.getHostname().isEmpty() ? n.getName() : n.getHostname()) + " Port=" + n.getPort() + " Version="
                + JobView.orNull(n.getVersion()));
        l.add("OS=" + JobView.orNull(n.getOs()) + " ");
        l.add("RealMemory=" + n.getRealMemoryMb() + " AllocMem=" + n.getAllocMemoryMb() + " FreeMem="
                + n.getFreeMemoryMb() + " Sockets=" + n.getSockets() + " Boards=" + Math.max(1, n.getBoards()));
        l.add("State=" + NodeStates.scontrolName(n) + " ThreadsPerCore=" + n.getThreadsPerCore() + " TmpDisk="
                + n.getTmpDiskMb() + " Weight=" + n.getWeight() + " Owner=N/A MCS_label=N/A");
        if (n.getPartitionsCount() > 0) {
            l.add("Partitions=" + String.join(",", n.getPartitionsList()) + " ");
        }
        l.add("BootTime=" + time(n.getBootTime(), zone, "None") + " SlurmdStartTime="
                + time(n.getSlurmdStartTime(), zone, "None"));
        l.add("LastBusyTime=" + time(n.getLastBusyTime(), zone, SlurmTimestamp.UNKNOWN));
        l.add("CfgTRES=" + (n.getCfgTres().isEmpty() ? cfgTres(n) : n.getCfgTres()));
        l.add("AllocTRES=" + n.getAllocTres());
        l.add("CapWatts=n/a");
        l.add("CurrentWatts=0 AveWatts=0");
        l.add("ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s");
        if (!n.getReason().isEmpty()) {
            String user = n.getReasonUser().isEmpty() ? "root" : n.getReasonUser();
            l.add("Reason=" + n.getReason() + " [" + user + "@" + time(n.getReasonTime(), zone, SlurmTimestamp.UNKNOWN)
                    + "]");
        }
        return l;
    }

    /** What Slurm derives when the controller sends no TRES string: cpu, memory, billing = cpus. */
    private static String cfgTres(NodeInfo n) {
        return Tres.empty()
                .with("cpu", n.getCpus())
                .with("mem", n.getRealMemoryMb())
                .with("billing", n.getCpus())
                .format();
    }

    private static String time(long epochSeconds, ZoneId zone, String unset) {
        return epochSeconds <= 0 ? unset : SlurmTimestamp.format(Instant.ofEpochSecond(epochSeconds), zone);
    }
}
