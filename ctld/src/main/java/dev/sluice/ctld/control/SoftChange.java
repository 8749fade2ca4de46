package dev.sluice.ctld.control;

/** Changes to state that is rebuilt after a restart and therefore never journaled. */
public sealed interface SoftChange {
    /** A node was heard from at {@code time} (registration or heartbeat). */
    record NodeHeard(String node, long time) implements SoftChange {}

    /** A node stopped answering and was marked DOWN. */
    record NodeSilent(String node) implements SoftChange {}

    /**
     * {@code sbatch --test-only} took a job id, as Slurm's does, without a job: later jobs get
     * higher ids. Not journaled: no job ever had the id, so a restart may hand it out again.
     */
    record JobIdUsed(int jobId) implements SoftChange {}

    /** A job's {@code --signal} was sent in its run that started at {@code startTime}. */
    record WarnSignalSent(int jobId, long startTime) implements SoftChange {}
}
