package dev.sluice.noded.confine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How this node confines jobs: a cgroup per job (v1: one per controller; v2: one) holding the
 * job's memory limit, and under it one per step ({@code job_N/step_M}, {@code step_batch} for the
 * batch script) with the step's devices, that the job's supervisor and the step tasks join before
 * they exec, or nothing ({@link Unconfined}).
 */
public interface Confinement {
    /** The line the daemon logs once at start: what jobs get here, or why nothing. */
    String describe();

    /** Whether jobs go into cgroups at all. */
    default boolean confines() {
        return true;
    }

    /** Creates the job's cgroups with its limits; returns the directories a process joins. */
    List<Path> create(JobLimits limits) throws IOException;

    /** The job's cgroup directories that exist now; empty when it has none here. */
    List<Path> existing(int jobId);

    /** Whether the kernel's OOM killer killed a process of the job. */
    boolean oomKilled(int jobId);

    /** Kills what is left in the job's cgroups (its steps' with them) and removes them. */
    void remove(int jobId);

    /**
     * Creates the step's cgroups under its job's (which exist), denying {@code denied} on top of
     * what the job denies; returns the directories the step's processes join.
     *
     * @param step the step's directory name ({@link #stepName})
     */
    List<Path> createStep(int jobId, String step, List<DeviceFile> denied) throws IOException;

    /** Kills what is left in the step's own cgroups and removes them; the job's stay. */
    void removeStep(int jobId, String step);

    /**
     * At the daemon's clean exit: removes its parent cgroups where no job's is left in them (a
     * job that outlives the daemon keeps its own, and with it the parent, for the next daemon to
     * adopt).
     */
    default void removeParentIfEmpty() {}

    /** {@code step_M}, as Slurm names a step's cgroup; {@code step_batch} for the batch script. */
    static String stepName(long stepId) {
        return "step_" + stepId;
    }

    /** The batch script's step cgroup. */
    String BATCH_STEP = "step_batch";

    /**
     * The command that puts itself into each of {@code dirs}, then runs {@code command}: what it
     * starts is confined from its first instruction ({@code exec} keeps the pid).
     */
    static List<String> joining(List<Path> dirs, List<String> command) {
        if (dirs.isEmpty()) {
            return command;
        }
        List<String> out = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                "while [ \"$1\" != -- ]; do echo $$ > \"$1/cgroup.procs\" || exit 126; shift; done; shift;"
                        + " exec \"$@\"",
                "sluice-cgroup"));
        dirs.forEach(d -> out.add(d.toString()));
        out.add("--");
        out.addAll(command);
        return out;
    }
}
