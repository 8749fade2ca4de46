package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.JobView;
import dev.sluice.cli.view.NodeLists;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.units.MemorySize;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code scontrol show job}: Slurm 22.05's layout, line for line. A record ends with a line of
 * three spaces (the layout's empty last line) before the blank separator, as in Slurm.
 */
final class JobShow {
    private JobShow() {}

    static List<String> lines(JobView j) {
        return lines(j, false);
    }

    /** @param details {@code -d}: DerivedExitCode and the per-node lines ({@link JobDetail}) */
    static List<String> lines(JobView j, boolean details) {
        JobInfo info = j.info();
        JobSpec spec = j.spec();
        List<String> l = new ArrayList<>();
        StringBuilder first = new StringBuilder("JobId=").append(j.internalId());
        if (j.isArray()) {
            first.append(" ArrayJobId=")
                    .append(j.arrayJobId())
                    .append(" ArrayTaskId=")
                    .append(j.arrayTaskId());
            j.arrayThrottle().ifPresent(t -> first.append(" ArrayTaskThrottle=").append(t));
        }
        l.add(first.append(" JobName=").append(j.name()).toString());
        l.add("UserId=" + j.userName() + "(" + j.uid() + ") GroupId=" + j.groupName() + "(" + j.gid()
                + ") MCS_label=N/A");
        l.add("Priority=" + j.priority() + " Nice=" + spec.getNice() + " Account=" + JobView.orNull(spec.getAccount())
                + " QOS=" + qos(spec)
                // Only a job that carries one (TrackWCKey=yes) shows it (compat 218).
                + (spec.getWckey().isEmpty() ? "" : " WCKey=" + spec.getWckey()));
        l.add("JobState=" + j.stateName() + " Reason="
                + j.described().replace(' ', '_') + " Dependency="
                + JobView.orNull(j.info().getDependency()));
        l.add("Requeue=" + (spec.getRequeue() ? 1 : 0) + " Restarts=" + Integer.toUnsignedString(info.getRestartCount())
                + " BatchFlag=1 Reboot=0 ExitCode=" + exitCode(info.getExitStatus()));
        if (details) {
            l.add("DerivedExitCode=" + exitCode(info.getDerivedExitStatus()));
        }
        l.add("RunTime=" + Layout.duration(j.elapsedSeconds()) + " TimeLimit=" + TimeLimit.format(j.timeLimitMinutes())
                + " TimeMin=N/A");
        l.add("SubmitTime=" + j.timeOrUnknown(info.getSubmitTime()) + " EligibleTime="
                + j.timeOrUnknown(info.getEligibleTime()));
        l.add("AccrueTime=" + j.timeOrUnknown(info.getAccrueTime()));
        l.add("StartTime=" + j.timeOrUnknown(info.getStartTime()) + " EndTime=" + j.timeOrUnknown(j.endTime())
                + " Deadline=" + (spec.getDeadline() > 0 ? j.timestamp(spec.getDeadline()) : "N/A"));
        l.add("SuspendTime=" + (info.getSuspendTime() > 0 ? j.timestamp(info.getSuspendTime()) : "None")
                + " SecsPreSuspend=" + info.getPreSuspendSeconds() + " LastSchedEval="
                + j.timeOrUnknown(info.getLastSchedEval()) + " Scheduler=Main");
        // The controller names the submitting host (AllocNode); an older one sent no name.
        String allocNode = info.getAllocNode().isEmpty() ? spec.getSubmitHost() : info.getAllocNode();
        l.add("Partition=" + j.partition() + " AllocNode:Sid=" + JobView.orNull(allocNode) + ":0");
        l.add("ReqNodeList=" + NodeLists.rangedOrNull(spec.getReqNodes()) + " ExcNodeList="
                + NodeLists.rangedOrNull(spec.getExcludeNodes()));
        l.add("NodeList=" + j.nodeList());
        if (!info.getBatchHost().isEmpty()) {
            l.add("BatchHost=" + info.getBatchHost());
        }
        l.add("NumNodes=" + numNodes(j) + " NumCPUs=" + j.cpuCount() + " NumTasks=" + numTasks(j) + " CPUs/Task="
                + j.cpusPerTask() + " ReqB:S:C:T=0:0:*:*");
        l.add("TRES=" + tres(j));
        l.add("Socks/Node=* NtasksPerN:B:S:C=" + Integer.toUnsignedString(spec.getNtasksPerNode())
                + ":0:*:* CoreSpec=*");
        if (details) {
            l.addAll(JobDetail.lines(info));
        }
        l.add("MinCPUsNode=" + j.minCpusPerNode() + " " + minMemory(j) + " MinTmpDiskNode=0");
        l.add("Features=" + JobView.orNull(spec.getConstraint()) + " DelayBoot=00:00:00");
        // Slurm 22.05 prints the job's reservation on a line of its own, only when it has one.
        if (!spec.getReservation().isEmpty()) {
            l.add("Reservation=" + spec.getReservation());
        }
        l.add("OverSubscribe=" + JobView.overSubscribe(spec) + " Contiguous=0 Licenses="
                + JobView.orNull(spec.getLicenses()) + " Network=(null)");
        l.add("Command=" + j.command());
        l.add("WorkDir=" + j.workDir());
        if (!spec.getComment().isEmpty()) {
            l.add("Comment=" + spec.getComment() + " ");
        }
        // sbatch(1): slurm-%j.out, and slurm-%A_%a.out for a job array.
        String out = ioPath(j, info.getStdOut(), spec.getStdOut(), j.isArray() ? "slurm-%A_%a.out" : "slurm-%j.out");
        String err = ioPath(j, info.getStdErr(), spec.getStdErr(), null);
        l.add("StdErr=" + (err == null ? out : err));
        l.add("StdIn=" + ioPath(j, info.getStdIn(), spec.getStdIn(), "/dev/null"));
        l.add("StdOut=" + out);
        l.add("Power=");
        // GPU and GRES requests follow in Slurm's order, each only when asked for.
        addIfSet(l, "CpusPerTres=", j.cpusPerTres());
        addIfSet(l, "MemPerTres=", j.memPerTres());
        addIfSet(l, "TresPerJob=", j.tresPerJob());
        addIfSet(l, "TresPerNode=", j.tresPerNode().equals("N/A") ? "" : j.tresPerNode());
        addIfSet(l, "TresPerTask=", j.tresPerTask());
        if (!spec.getMailType().isEmpty()) {
            l.add("MailUser=" + spec.getMailUser() + " MailType=" + spec.getMailType());
        }
        // Beyond Slurm: why a pending job waits, in numbers (docs/scheduling.md); absent otherwise.
        addIfSet(l, "WaitDetail=", info.getWaitDetail());
        l.add("");
        return l;
    }

    /**
     * A job without a QOS shows {@code (null)} where it has no account either (no accounting, as
     * in Slurm without a database), but an empty name where it runs under an association: a
     * {@code --qos} naming none that exists ({@code QOS=}, observed on 22.05, compat 089).
     */
    private static String qos(JobSpec spec) {
        if (!spec.getQos().isEmpty()) {
            return spec.getQos();
        }
        return spec.getAccount().isEmpty() ? "(null)" : "";
    }

    private static void addIfSet(List<String> lines, String key, String value) {
        if (!value.isEmpty()) {
            lines.add(key + value);
        }
    }

    /** {@code exit:signal} from a wait(2) status. */
    static String exitCode(int status) {
        return ((status >> 8) & 0xff) + ":" + (status & 0x7f);
    }

    private static String numNodes(JobView j) {
        JobSpec spec = j.spec();
        if (j.state() == JobState.PENDING && spec.getMinNodes() > 0) {
            long min = Integer.toUnsignedLong(spec.getMinNodes());
            long max = spec.getMaxNodes() > 0 ? Integer.toUnsignedLong(spec.getMaxNodes()) : min;
            return min + "-" + max;
        }
        return Long.toString(j.nodeCount());
    }

    private static String numTasks(JobView j) {
        if (j.spec().getNumTasks() > 0) {
            return Integer.toUnsignedString(j.spec().getNumTasks());
        }
        // Slurm shows the implied task count for a job that waits or got nodes; one that ended
        // without ever running (cancelled while pending) shows N/A.
        if (j.state() == JobState.PENDING || !j.info().getNodeList().isEmpty()) {
            int perNode = Math.max(1, j.spec().getNtasksPerNode());
            return Long.toString(j.nodeCount() * perNode);
        }
        return "N/A";
    }

    private static String tres(JobView j) {
        String t = j.info().getAllocTres().isEmpty()
                ? j.info().getReqTres()
                : j.info().getAllocTres();
        return t.isEmpty() ? "(null)" : t;
    }

    private static String minMemory(JobView j) {
        long perCpu = j.spec().getMemPerCpuMb();
        if (perCpu > 0 && j.spec().getMemPerNodeMb() == 0) {
            return "MinMemoryCPU=" + MemorySize.format(perCpu);
        }
        long perNode = j.info().getMemPerNodeMb() > 0
                ? j.info().getMemPerNodeMb()
                : j.spec().getMemPerNodeMb();
        return "MinMemoryNode=" + MemorySize.format(perNode);
    }

    /**
     * A standard stream path as scontrol shows it: the controller's value, else what was asked,
     * else the default; {@code %j}, {@code %A}, {@code %a}, {@code %x}, {@code %u} and {@code %%}
     * expanded; relative paths taken from the job's working directory. {@code null} when nothing
     * applies.
     */
    private static String ioPath(JobView j, String fromController, String asked, String dflt) {
        String p = !fromController.isEmpty() ? fromController : !asked.isEmpty() ? asked : dflt;
        if (p == null) {
            return null;
        }
        String expanded = expand(p, j);
        if (expanded.startsWith("/") || j.workDir().isEmpty()) {
            return expanded;
        }
        return Path.of(j.workDir()).resolve(expanded).toString();
    }

    static String expand(String pattern, JobView j) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 >= pattern.length()) {
                s.append(c);
                continue;
            }
            char k = pattern.charAt(++i);
            switch (k) {
                case 'j' -> s.append(j.internalId());
                case 'A' -> s.append(j.arrayJobId());
                case 'a' -> s.append(j.isArray() ? j.arrayTaskId() : String.valueOf(SlurmLimits.NO_VAL));
                case 'x' -> s.append(j.name());
                case 'u' -> s.append(j.userName());
                case '%' -> s.append('%');
                default -> s.append('%').append(k);
            }
        }
        return s.toString();
    }
}
