package dev.sluice.cli.command.sacct;

import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.view.JobStates;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobState;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The values of sacct's fields that take more than reading one stored number, as Slurm 22.05
 * prints them (read off real sacct output). Pure.
 */
final class SacctValues {
    private SacctValues() {}

    /**
     * {@code CANCELLED by 0} for a job someone cancelled, and for its steps that were killed
     * with it; the batch step, ended by its signal, stays {@code CANCELLED}.
     */
    static String state(SacctRow row) {
        AccountedJob j = row.job();
        JobState s = row.isStep() ? row.step().getState() : j.getState();
        String name = JobStates.longName(s);
        boolean byScript = row.isStep() && row.step().getStepId() == SacctRow.BATCH;
        if (s == JobState.CANCELLED && j.hasCancelledBy() && !byScript) {
            return name + " by " + Integer.toUnsignedString(j.getCancelledBy());
        }
        return name;
    }

    /** A TRES list with its memory in the requested units; text it cannot read prints as stored. */
    static String tres(String stored, SacctContext c) {
        if (c.unit() == 0 || stored.isEmpty()) {
            return stored;
        }
        try {
            return Tres.parse(stored).formatByName(c::memory);
        } catch (IllegalArgumentException e) {
            return stored;
        }
    }

    /** ReqMem: the memory of the job's ReqTRES, the whole request (22.05 adds no n/c suffix). */
    static String reqMem(AccountedJob j, SacctContext c) {
        try {
            return c.memory(Tres.parse(j.getReqTres()).get("mem"));
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    static long elapsed(SacctRow row, long now) {
        long start = row.isStep() ? row.step().getStartTime() : row.job().getStartTime();
        long end = row.isStep() ? row.step().getEndTime() : row.job().getEndTime();
        if (start <= 0) {
            return 0;
        }
        return Math.max(0, (end > 0 ? end : now) - start);
    }

    static int cpus(SacctRow row) {
        return row.isStep() ? row.step().getNumCpus() : row.job().getNumCpus();
    }

    /** CPUTimeRAW: elapsed seconds times the CPUs held. */
    static long cpuSeconds(SacctRow row, long now) {
        return elapsed(row, now) * cpus(row);
    }

    /** Reserved: how long the job waited from eligible to start; negative (never started) is INVALID. */
    static long reservedSeconds(AccountedJob j) {
        return j.getStartTime() - j.getEligibleTime();
    }

    static String reserved(AccountedJob j) {
        long r = reservedSeconds(j);
        return r < 0 ? "INVALID" : SacctTimes.duration(r);
    }

    static String reservedCpu(AccountedJob j) {
        long r = reservedSeconds(j);
        return r < 0 ? "INVALID" : SacctTimes.duration(r * j.getNumCpus());
    }

    /** ResvCPURAW; Slurm prints the negative product of a job that never started as unsigned 32 bits. */
    static String reservedCpuRaw(AccountedJob j) {
        long raw = reservedSeconds(j) * j.getNumCpus();
        return raw < 0 ? Integer.toUnsignedString((int) raw) : Long.toString(raw);
    }

    /**
     * Layout: the batch script's step has none ({@code Unknown}); srun's default distribution
     * is block when there are more tasks than nodes, cyclic otherwise.
     */
    static String layout(AccountedStep s) {
        if (s.getStepId() == SacctRow.BATCH || s.getStepId() == SacctRow.EXTERN) {
            return "Unknown";
        }
        return s.getNumTasks() > s.getNumNodes() ? "Block" : "Cyclic";
    }

    /** ReqCPUFreq*: the batch step asks for none (0); the job and srun steps do not say (Unknown). */
    static String cpuFrequency(SacctRow row) {
        return row.isStep() && row.step().getStepId() == SacctRow.BATCH ? "0" : "Unknown";
    }

    /** Flags: jobs Slurm started say its main scheduler did; every record says the start was received. */
    static String flags(AccountedJob j) {
        return j.getStartTime() > 0 && !j.getNodeList().isEmpty() ? "SchedMain,StartRecieved" : "StartRecieved";
    }

    /** TimelimitRaw: the limit in minutes. */
    static String limitMinutes(int minutes) {
        if (minutes == SlurmLimits.INFINITE32) {
            return "UNLIMITED";
        }
        if (minutes == SlurmLimits.NO_VAL32 || minutes == 0) {
            return "Partition_Limit";
        }
        return Integer.toUnsignedString(minutes);
    }

    static String nodeList(SacctRow row) {
        String nodes = row.isStep() ? row.step().getNodeList() : row.job().getNodeList();
        return nodes.isEmpty() ? "None assigned" : nodes;
    }

    static String group(AccountedJob j, UserDirectory users) {
        if (!j.getGroupName().isEmpty()) {
            return j.getGroupName();
        }
        long gid = Integer.toUnsignedLong(j.getGid());
        return users.groupName(gid).orElse(Long.toString(gid));
    }

    static String time(long epochSeconds, ZoneId zone) {
        return SlurmTimestamp.format(epochSeconds <= 0 ? null : Instant.ofEpochSecond(epochSeconds), zone);
    }

    /** {@code exit:signal} from a wait(2) status. */
    static String exitCode(int status) {
        return ((status >> 8) & 0xff) + ":" + (status & 0x7f);
    }
}
