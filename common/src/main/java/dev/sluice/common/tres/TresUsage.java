package dev.sluice.common.tres;

/**
 * The TRES usage lists of sstat and sacct ({@code TRESUsageIn*}, {@code TRESUsageOut*}), whose
 * values are printed already (a CPU time as {@code 00:01:02}, a size as {@code 3220K}, a node
 * name or a task id): the TRES a task reads in Slurm's order, {@code cpu}, {@code energy},
 * {@code fs/disk}, {@code mem}, {@code pages}, {@code vmem}, and what it writes, {@code energy},
 * {@code fs/disk}.
 */
public final class TresUsage {
    private TresUsage() {}

    /** What tasks read; {@code energy} null leaves it out (the task-id lists, observed). */
    public static String in(String cpu, String energy, String disk, String mem, String pages, String vmem) {
        StringBuilder b = new StringBuilder("cpu=").append(cpu);
        if (energy != null) {
            b.append(",energy=").append(energy);
        }
        return b.append(",fs/disk=")
                .append(disk)
                .append(",mem=")
                .append(mem)
                .append(",pages=")
                .append(pages)
                .append(",vmem=")
                .append(vmem)
                .toString();
    }

    /** What tasks write; {@code energy} null leaves it out (the task-id lists, observed). */
    public static String out(String energy, String disk) {
        return (energy == null ? "" : "energy=" + energy + ",") + "fs/disk=" + disk;
    }
}
