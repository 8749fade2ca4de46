package dev.sluice.ctld.state;

import dev.sluice.common.conf.NodeConf;

/** A node's resources as configured or registered. */
public record NodeHardware(
        int cpus, int boards, int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb, long tmpDiskMb) {

    public NodeHardware {
        if (cpus < 1) {
            throw new IllegalArgumentException("cpus must be positive: " + cpus);
        }
        if (threadsPerCore < 1) {
            throw new IllegalArgumentException("threadsPerCore must be positive: " + threadsPerCore);
        }
    }

    /** Hardware as slurm.conf (or {@code scontrol create}'s line) describes it. */
    public static NodeHardware configured(NodeConf.Hardware hw) {
        return new NodeHardware(
                hw.cpus(),
                hw.boards(),
                hw.sockets(),
                hw.coresPerSocket(),
                hw.threadsPerCore(),
                hw.realMemoryMb(),
                hw.tmpDiskMb());
    }

    /**
     * Hardware as a node daemon reported it or a journal kept it, where zero boards, sockets,
     * cores or threads means the daemon did not say: one of each, as Slurm assumes.
     */
    public static NodeHardware reported(
            int cpus,
            int boards,
            int sockets,
            int coresPerSocket,
            int threadsPerCore,
            long realMemoryMb,
            long tmpDiskMb) {
        return new NodeHardware(
                cpus,
                Math.max(1, boards),
                Math.max(1, sockets),
                Math.max(1, coresPerSocket),
                Math.max(1, threadsPerCore),
                realMemoryMb,
                tmpDiskMb);
    }

    /** A node described only by its CPU count: one socket per CPU, as Slurm assumes. */
    public static NodeHardware ofCpus(int cpus, long realMemoryMb) {
        return new NodeHardware(cpus, 1, cpus, 1, 1, realMemoryMb, 0);
    }
}
