package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.common.scalein.ScaleInRanking.NodeSlot;
import dev.sluice.common.scalein.ScaleInRanking.RunningJob;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code scontrol show scalein}, a Sluice addition: the nodes in the order an autoscaler should
 * remove them ({@link ScaleInRanking}), one scontrol record each. Slurm has no such entity; the
 * keys reuse scontrol's vocabulary ({@code NodeName}, {@code State}, {@code EndTime}) so the
 * records parse like {@code scontrol show node}.
 */
final class ScaleInShow {
    private ScaleInShow() {}

    /** Ranks {@code nodes} (already narrowed to what the caller asked for) against all jobs. */
    static List<Candidate> rank(List<NodeInfo> nodes, List<JobInfo> jobs, long now) {
        List<NodeSlot> slots = new ArrayList<>();
        for (NodeInfo n : nodes) {
            slots.add(new NodeSlot(n.getName(), NodeStates.unavailable(n)));
        }
        List<RunningJob> running = new ArrayList<>();
        for (JobInfo j : jobs) {
            // A suspended job keeps its nodes; its limit is counted from its start all the same.
            if ((j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED)
                    && !j.getNodeList().isEmpty()) {
                running.add(new RunningJob(
                        HostList.expand(j.getNodeList()),
                        ScaleInRanking.limitEnd(j.getStartTime(), Integer.toUnsignedLong(j.getTimeLimitMinutes()))));
            }
        }
        return ScaleInRanking.rank(slots, running, now);
    }

    static List<String> lines(Candidate c, Map<String, NodeInfo> byName, ZoneId zone) {
        String freeIn;
        String endTime;
        if (c.unlimited()) {
            freeIn = "UNLIMITED";
            endTime = SlurmTimestamp.UNKNOWN;
        } else if (c.freeAt() == 0) {
            freeIn = Layout.duration(0);
            endTime = "None";
        } else {
            freeIn = Layout.duration(c.freeInSeconds());
            endTime = SlurmTimestamp.format(Instant.ofEpochSecond(c.freeAt()), zone);
        }
        return List.of(
                "NodeName=" + c.name() + " Rank=" + c.rank() + " State="
                        + NodeStates.scontrolName(byName.get(c.name())),
                "RunningJobs=" + c.jobs() + " FreeIn=" + freeIn + " EndTime=" + endTime);
    }
}
