package dev.sluice.cli.command.sstat;

import dev.sluice.common.tres.TresUsage;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * sstat's fields, their titles and widths (negative: left-justified), as Slurm 22.05 prints
 * them (read off the real command), and each one's value for a step. Sizes of memory print in
 * KiB with a {@code K}, disk I/O in bytes, CPU time as {@code [D-]HH:MM:SS}.
 */
enum SstatField {
    AVECPU("AveCPU", 10),
    AVECPUFREQ("AveCPUFreq", 10),
    AVEDISKREAD("AveDiskRead", 12),
    AVEDISKWRITE("AveDiskWrite", 12),
    AVEPAGES("AvePages", 10),
    AVERSS("AveRSS", 10),
    AVEVMSIZE("AveVMSize", 10),
    CONSUMEDENERGY("ConsumedEnergy", 14),
    CONSUMEDENERGYRAW("ConsumedEnergyRaw", 17),
    JOBID("JobID", -12),
    MAXDISKREAD("MaxDiskRead", 12),
    MAXDISKREADNODE("MaxDiskReadNode", 15),
    MAXDISKREADTASK("MaxDiskReadTask", 15),
    MAXDISKWRITE("MaxDiskWrite", 12),
    MAXDISKWRITENODE("MaxDiskWriteNode", 16),
    MAXDISKWRITETASK("MaxDiskWriteTask", 16),
    MAXPAGES("MaxPages", 8),
    MAXPAGESNODE("MaxPagesNode", 12),
    MAXPAGESTASK("MaxPagesTask", 14),
    MAXRSS("MaxRSS", 10),
    MAXRSSNODE("MaxRSSNode", 10),
    MAXRSSTASK("MaxRSSTask", 10),
    MAXVMSIZE("MaxVMSize", 10),
    MAXVMSIZENODE("MaxVMSizeNode", 14),
    MAXVMSIZETASK("MaxVMSizeTask", 14),
    MINCPU("MinCPU", 10),
    MINCPUNODE("MinCPUNode", 10),
    MINCPUTASK("MinCPUTask", 10),
    NODELIST("Nodelist", 20),
    NTASKS("NTasks", 8),
    PIDS("Pids", 20),
    REQCPUFREQ("ReqCPUFreq", 10),
    REQCPUFREQMIN("ReqCPUFreqMin", 13),
    REQCPUFREQMAX("ReqCPUFreqMax", 13),
    REQCPUFREQGOV("ReqCPUFreqGov", 13),
    TRESUSAGEINAVE("TRESUsageInAve", 14),
    TRESUSAGEINMAX("TRESUsageInMax", 14),
    TRESUSAGEINMAXNODE("TRESUsageInMaxNode", 18),
    TRESUSAGEINMAXTASK("TRESUsageInMaxTask", 18),
    TRESUSAGEINMIN("TRESUsageInMin", 14),
    TRESUSAGEINMINNODE("TRESUsageInMinNode", 18),
    TRESUSAGEINMINTASK("TRESUsageInMinTask", 18),
    TRESUSAGEINTOT("TRESUsageInTot", 14),
    TRESUSAGEOUTAVE("TRESUsageOutAve", 15),
    TRESUSAGEOUTMAX("TRESUsageOutMax", 15),
    TRESUSAGEOUTMAXNODE("TRESUsageOutMaxNode", 19),
    TRESUSAGEOUTMAXTASK("TRESUsageOutMaxTask", 19),
    TRESUSAGEOUTMIN("TRESUsageOutMin", 15),
    TRESUSAGEOUTMINNODE("TRESUsageOutMinNode", 19),
    TRESUSAGEOUTMINTASK("TRESUsageOutMinTask", 19),
    TRESUSAGEOUTTOT("TRESUsageOutTot", 15);

    /** sstat's default fields, in its order. */
    static final List<SstatField> DEFAULT = List.of(
            JOBID,
            MAXVMSIZE,
            MAXVMSIZENODE,
            MAXVMSIZETASK,
            AVEVMSIZE,
            MAXRSS,
            MAXRSSNODE,
            MAXRSSTASK,
            AVERSS,
            MAXPAGES,
            MAXPAGESNODE,
            MAXPAGESTASK,
            AVEPAGES,
            MINCPU,
            MINCPUNODE,
            MINCPUTASK,
            AVECPU,
            NTASKS,
            AVECPUFREQ,
            REQCPUFREQMIN,
            REQCPUFREQMAX,
            REQCPUFREQGOV,
            CONSUMEDENERGY,
            MAXDISKREAD,
            MAXDISKREADNODE,
            MAXDISKREADTASK,
            AVEDISKREAD,
            MAXDISKWRITE,
            MAXDISKWRITENODE,
            MAXDISKWRITETASK,
            AVEDISKWRITE,
            TRESUSAGEINAVE,
            TRESUSAGEINMAX,
            TRESUSAGEINMAXNODE,
            TRESUSAGEINMAXTASK,
            TRESUSAGEINMIN,
            TRESUSAGEINMINNODE,
            TRESUSAGEINMINTASK,
            TRESUSAGEINTOT,
            TRESUSAGEOUTAVE,
            TRESUSAGEOUTMAX,
            TRESUSAGEOUTMAXNODE,
            TRESUSAGEOUTMAXTASK,
            TRESUSAGEOUTMIN,
            TRESUSAGEOUTMINNODE,
            TRESUSAGEOUTMINTASK,
            TRESUSAGEOUTTOT);

    /** {@code -i}: JobID, Nodelist, Pids. */
    static final List<SstatField> PIDS_FORMAT = List.of(JOBID, NODELIST, PIDS);

    final String title;
    final int width;

    SstatField(String title, int width) {
        this.title = title;
        this.width = width;
    }

    /** A {@code --format} name, in any case, whole. */
    static Optional<SstatField> named(String name) {
        for (SstatField f : values()) {
            if (f.title.equalsIgnoreCase(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /**
     * @param jobId the step's name as sstat prints it ({@code 12.0}, {@code 12.batch})
     * @param batch whether it is the batch step (no requested CPU frequency: 0, not Unknown)
     */
    String value(String jobId, boolean batch, String nodeList, StepStats s) {
        String freq = batch ? "0" : "Unknown";
        return switch (this) {
            case JOBID -> jobId;
            case MAXVMSIZE -> kib(s.vmsize().max());
            case MAXVMSIZENODE -> s.vmsize().maxNode();
            case MAXVMSIZETASK -> Integer.toString(s.vmsize().maxTask());
            case AVEVMSIZE -> kib(s.vmsize().mean());
            case MAXRSS -> kib(s.rss().max());
            case MAXRSSNODE -> s.rss().maxNode();
            case MAXRSSTASK -> Integer.toString(s.rss().maxTask());
            case AVERSS -> kib(s.rss().mean());
            case MAXPAGES -> count(s.pages().max());
            case MAXPAGESNODE -> s.pages().maxNode();
            case MAXPAGESTASK -> Integer.toString(s.pages().maxTask());
            case AVEPAGES -> count(s.pages().mean());
            case MINCPU -> time(s.cpu().min());
            case MINCPUNODE -> s.cpu().minNode();
            case MINCPUTASK -> Integer.toString(s.cpu().minTask());
            case AVECPU -> time(s.cpu().mean());
            case NTASKS -> Integer.toString(s.tasks());
            case AVECPUFREQ -> frequency(s.cpuFreqKhz());
            case REQCPUFREQ, REQCPUFREQMIN, REQCPUFREQMAX, REQCPUFREQGOV -> freq;
            case CONSUMEDENERGY, CONSUMEDENERGYRAW -> "0";
            case MAXDISKREAD -> count(s.read().max());
            case MAXDISKREADNODE -> s.read().maxNode();
            case MAXDISKREADTASK -> Integer.toString(s.read().maxTask());
            case AVEDISKREAD -> count(s.read().mean());
            case MAXDISKWRITE -> count(s.write().max());
            case MAXDISKWRITENODE -> s.write().maxNode();
            case MAXDISKWRITETASK -> Integer.toString(s.write().maxTask());
            case AVEDISKWRITE -> count(s.write().mean());
            case NODELIST -> nodeList;
            case PIDS -> s.pids();
            case TRESUSAGEINAVE ->
                in(
                        time(s.cpu().mean()),
                        "0",
                        count(s.read().mean()),
                        kib(s.rss().mean()),
                        count(s.pages().mean()),
                        kib(s.vmsize().mean()));
            case TRESUSAGEINMAX ->
                in(
                        time(s.cpu().max()),
                        "0",
                        count(s.read().max()),
                        kib(s.rss().max()),
                        count(s.pages().max()),
                        kib(s.vmsize().max()));
            case TRESUSAGEINMAXNODE ->
                in(
                        s.cpu().maxNode(),
                        s.cpu().maxNode(),
                        s.read().maxNode(),
                        s.rss().maxNode(),
                        s.pages().maxNode(),
                        s.vmsize().maxNode());
            case TRESUSAGEINMAXTASK ->
                tasks(
                        time(s.cpu().maxTask()),
                        s.read().maxTask(),
                        s.rss().maxTask(),
                        s.pages().maxTask(),
                        s.vmsize().maxTask());
            case TRESUSAGEINMIN ->
                in(
                        time(s.cpu().min()),
                        "0",
                        count(s.read().min()),
                        kib(s.rss().min()),
                        count(s.pages().min()),
                        kib(s.vmsize().min()));
            case TRESUSAGEINMINNODE ->
                in(
                        s.cpu().minNode(),
                        s.cpu().minNode(),
                        s.read().minNode(),
                        s.rss().minNode(),
                        s.pages().minNode(),
                        s.vmsize().minNode());
            case TRESUSAGEINMINTASK ->
                tasks(
                        time(s.cpu().minTask()),
                        s.read().minTask(),
                        s.rss().minTask(),
                        s.pages().minTask(),
                        s.vmsize().minTask());
            case TRESUSAGEINTOT ->
                in(
                        time(s.cpu().total()),
                        "0",
                        count(s.read().total()),
                        kib(s.rss().total()),
                        count(s.pages().total()),
                        kib(s.vmsize().total()));
            case TRESUSAGEOUTAVE -> "energy=0,fs/disk=" + count(s.write().mean());
            case TRESUSAGEOUTMAX -> "energy=0,fs/disk=" + count(s.write().max());
            case TRESUSAGEOUTMAXNODE ->
                "energy=" + s.write().maxNode() + ",fs/disk=" + s.write().maxNode();
            case TRESUSAGEOUTMAXTASK -> "fs/disk=" + s.write().maxTask();
            case TRESUSAGEOUTMIN -> "energy=0,fs/disk=" + count(s.write().min());
            case TRESUSAGEOUTMINNODE ->
                "energy=" + s.write().minNode() + ",fs/disk=" + s.write().minNode();
            case TRESUSAGEOUTMINTASK -> "fs/disk=" + s.write().minTask();
            case TRESUSAGEOUTTOT -> "energy=0,fs/disk=" + count(s.write().total());
        };
    }

    private static String in(String cpu, String energy, String disk, String mem, String pages, String vmem) {
        return TresUsage.in(cpu, energy, disk, mem, pages, vmem);
    }

    /** Task ids by TRES (observed: energy is left out, and cpu's id prints as a time). */
    private static String tasks(String cpu, int disk, int mem, int pages, int vmem) {
        return TresUsage.in(
                cpu,
                null,
                Integer.toString(disk),
                Integer.toString(mem),
                Integer.toString(pages),
                Integer.toString(vmem));
    }

    static String kib(double kb) {
        return Math.round(kb) + "K";
    }

    static String count(double n) {
        return Long.toString(Math.round(n));
    }

    /** CPU seconds as {@code [D-]HH:MM:SS}. */
    static String time(double seconds) {
        long s = Math.round(Math.floor(seconds));
        long days = s / 86400;
        String hms = String.format(Locale.ROOT, "%02d:%02d:%02d", (s % 86400) / 3600, (s % 3600) / 60, s % 60);
        return days > 0 ? days + "-" + hms : hms;
    }

    /** A frequency in kHz scaled by thousands with Slurm's unit letters: 2600000 is {@code 2.60M}. */
    static String frequency(double khz) {
        String[] units = {"", "K", "M", "G", "T"};
        double v = khz;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return u == 0 ? Long.toString(Math.round(v)) : String.format(Locale.ROOT, "%.2f%s", v, units[u]);
    }
}
