package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobState;
import java.util.List;

/**
 * Work outside the controller that a decision requires: sent to node daemons only after the
 * records that justify it are durable. Beside {@link StateRecord} because both are what a
 * decision yields, and the job lifecycle ({@link JobLifecycle}) decides both.
 */
public sealed interface Effect {
    /** Start (or, after a controller restart, start again) a job's batch script. */
    record LaunchBatch(int jobId) implements Effect {}

    /** Kill every process of a job on these nodes. */
    record Terminate(int jobId, List<String> nodes, JobState reason, int restartCount) implements Effect {
        public Terminate {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * Deliver a signal to a job's processes: its batch shell's process group, the shell alone
     * ({@code batchOnly}), or only its step tasks ({@code stepsOnly}, {@code --signal} without
     * {@code B:}).
     */
    record Signal(int jobId, List<String> nodes, int signal, boolean batchOnly, boolean stepsOnly) implements Effect {
        public Signal {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * Deliver a signal to one step's tasks on these nodes ({@code scancel [-s SIG] J.S});
     * {@code cancel}: the step is cancelled, and its srun told so first.
     */
    record SignalStep(int jobId, int stepId, List<String> nodes, int signal, boolean cancel) implements Effect {
        public SignalStep {
            nodes = List.copyOf(nodes);
        }
    }

    /** Stop ({@code suspend}) or continue every process of a job on these nodes. */
    record Suspend(int jobId, List<String> nodes, boolean suspend) implements Effect {
        public Suspend {
            nodes = List.copyOf(nodes);
        }
    }

    /** Tell a node daemon to kill a job the controller no longer runs there. */
    record KillOrphan(String node, int jobId) implements Effect {}
}
