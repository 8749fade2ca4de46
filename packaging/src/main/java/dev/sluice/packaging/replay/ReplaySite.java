package dev.sluice.packaging.replay;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import java.util.Map;

/**
 * The cluster a trace is replayed on when the site gives no {@code slurm.conf} of its own: N
 * identical nodes of C CPUs (and G GPUs) in one partition whose limits are enforced, CR_Core
 * (memory is not a consumable:
 * SWF's memory fields are too often missing to hold jobs back), Slurm's scheduler defaults
 * (sched/backfill, bf_max_job_test=500, bf_window one day). Written as {@code slurm.conf} text
 * and read by the controller's own configuration path.
 */
public final class ReplaySite {
    private ReplaySite() {}

    public static String slurmConf(int nodes, int cpus, int gpus) {
        StringBuilder conf = new StringBuilder();
        conf.append("ClusterName=replay\n");
        conf.append("SlurmctldHost=localhost\n");
        conf.append("SelectType=select/cons_tres\n");
        conf.append("SelectTypeParameters=CR_Core\n");
        // A trace's job larger than the replayed cluster would wait forever under Slurm's
        // default (EnforcePartLimits=NO); refused at submission, the replay ends.
        conf.append("EnforcePartLimits=ALL\n");
        if (gpus > 0) {
            conf.append("GresTypes=gpu\n");
        }
        conf.append("NodeName=n[1-")
                .append(nodes)
                .append("] CPUs=")
                .append(cpus)
                .append(" RealMemory=")
                .append(1024L * cpus);
        if (gpus > 0) {
            conf.append(" Gres=gpu:").append(gpus);
        }
        conf.append('\n');
        conf.append("PartitionName=batch Nodes=n[1-")
                .append(nodes)
                .append("] Default=YES MaxTime=UNLIMITED State=UP\n");
        return conf.toString();
    }

    public static String gresConf(int gpus) {
        return gpus > 0 ? "Name=gpu Count=" + gpus + "\n" : "";
    }

    /** The controller's configuration for {@link #slurmConf}. */
    public static CtldConfig config(int nodes, int cpus, int gpus) throws ConfigException {
        if (nodes < 1 || cpus < 1 || gpus < 0) {
            throw new IllegalArgumentException("need at least one node of one CPU");
        }
        return CtldConfigs.from(
                SlurmConfReader.parse(slurmConf(nodes, cpus, gpus), "slurm.conf", IncludeResolver.none()),
                GresConfReader.parse(gresConf(gpus), "gres.conf"),
                0,
                Map.of());
    }
}
