package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a decision may read of the controller's state, and nothing it could change: handlers
 * ({@code ctld.control}) and loop commands get this, so "decide, do not mutate" is a compile
 * error to break rather than a javadoc. {@link ClusterState} is the one implementation; only
 * the controller loop holds it as itself and mutates it (replay and soft changes).
 */
public interface ClusterView {
    /** The id the next job submitted gets. */
    int nextJobId();

    /** The journal sequence of the last record replayed. */
    long sequence();

    /** The job with this id, or null. */
    Job job(int id);

    /** The jobs now, in id order (an immutable table). */
    Collection<Job> jobs();

    /** The node of this name, or null. */
    Node node(String name);

    /** Every node, in configuration order (read-only). */
    Collection<Node> nodes();

    List<Partition> partitions();

    /** Soft: whether the node answers (registered and heard within SlurmdTimeout). */
    boolean isResponding(String node);

    /** When the node was last heard from; 0 if never since this controller started. */
    long lastHeard(String node);

    /**
     * Soft: why a pending job waits (its hold, or what the last scheduling pass found), as
     * squeue shows it; a job that is not pending: its recorded reason.
     */
    JobReason pendingReason(Job job);

    /**
     * Soft: the nodes where a job that ended still has processes being killed (COMPLETING);
     * empty when none.
     */
    java.util.Set<String> completingOn(int jobId);

    /**
     * Whether this run of the job waits for its allocation Prolog ({@code PrologFlags=Alloc}
     * without NoHold): it shows reason {@code Prolog} until every node of it reports it done.
     */
    boolean waitsForProlog(Job job);

    /** The nodes whose allocation Prolog this run of the job still waits for; none if it waits for none. */
    java.util.Set<String> prologRunsOn(Job job);

    /** Whether {@code --signal} was sent to this run of the job (a requeued job gets it again). */
    boolean warnSignalSent(Job job);

    /** When this run of the job is to be killed for preemption, if it is in its GraceTime. */
    java.util.Optional<ClusterState.PreemptGrace> preemptGrace(Job job);

    /** The node as readers see it: base state and flags derived from its running jobs. */
    NodeView view(Node node);

    /** Soft: the priority the last scheduling pass gave this job, 0 if none. */
    long priority(int jobId);

    /** Soft: the steps of running jobs, by job id (also of runs that ended, until swept). */
    Map<Integer, JobSteps> steps();

    /** The advance reservations (durable: journaled, replayed). */
    Reservations reservations();
}
