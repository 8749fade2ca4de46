package dev.sluice.ctld.control;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.JobSteps;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.List;

/** Changes to state that is rebuilt after a restart and therefore never journaled. */
public sealed interface SoftChange {
    /**
     * Whether a scheduling pass could decide differently after this change. False for the
     * bookkeeping a heartbeat or the pass itself leaves, which must not cost a pass each.
     */
    default boolean mattersToScheduling() {
        return true;
    }

    /** A node was heard from at {@code time} (registration or heartbeat). */
    record NodeHeard(String node, long time) implements SoftChange {
        @Override
        public boolean mattersToScheduling() {
            return false;
        }
    }

    /** A node stopped answering and was marked DOWN. */
    record NodeSilent(String node) implements SoftChange {}

    /**
     * {@code sbatch --test-only} took a job id, as Slurm's does, without a job: later jobs get
     * higher ids. Not journaled: no job ever had the id, so a restart may hand it out again.
     */
    record JobIdUsed(int jobId) implements SoftChange {
        @Override
        public boolean mattersToScheduling() {
            return false;
        }
    }

    /** A running job's steps changed (one started or ended). */
    record StepsChanged(int jobId, JobSteps steps) implements SoftChange {
        public StepsChanged {
            requireNonNull(steps, "steps is null");
        }
    }

    /** A job's steps are forgotten: the run they belonged to is over. */
    record StepsForgotten(int jobId) implements SoftChange {}

    /**
     * {@code scontrol update PartitionName=...}: not journaled, as Slurm (started without
     * {@code -R}) takes its partitions from slurm.conf again at every start.
     */
    record PartitionUpdated(Partition partition) implements SoftChange {
        public PartitionUpdated {
            requireNonNull(partition, "partition is null");
        }
    }

    /**
     * A job ended while its processes still ran on {@code node} (a cancel): it shows COMPLETING
     * there until the node reports them gone ({@code completing} false), as Slurm's jobs do.
     */
    record JobCompleting(int jobId, String node, boolean completing) implements SoftChange {
        public JobCompleting {
            requireNonNull(node, "node is null");
        }
    }

    /**
     * The batch host reported the script's end while other nodes' allocation Prologs still run
     * (the end waits for them, {@link BatchEnds#reported}): the job shows COMPLETING, its reason
     * still {@code Prolog}, as slurmctld shows it (compat 308). Soft: the node sends the end
     * again every 100 ms, so a restarted controller learns it again at once.
     */
    record BatchEndWaits(int jobId) implements SoftChange {
        @Override
        public boolean mattersToScheduling() {
            return false;
        }
    }

    /** A job's {@code --signal} was sent in its run that started at {@code startTime}. */
    record WarnSignalSent(int jobId, long startTime) implements SoftChange {
        @Override
        public boolean mattersToScheduling() {
            return false;
        }
    }

    /**
     * {@code scontrol reconfigure}: the files changed under a running controller (nodes new to
     * slurm.conf, partitions as now configured). Not journaled: like the controller's start-up
     * configuration it comes from the files at every start.
     */
    record Reconfigured(List<Node> nodes, List<Partition> partitions, List<DynamicMembership> memberships)
            implements SoftChange {
        public Reconfigured {
            nodes = List.copyOf(nodes);
            partitions = List.copyOf(partitions);
            memberships = List.copyOf(memberships);
        }
    }

    /**
     * What the last scheduling pass said of the pending jobs: why each waits, when and where
     * backfill expects it to start, its priority, and a detail in numbers.
     */
    record QueueViewed(ClusterImage.QueueFacts facts) implements SoftChange {}
}
