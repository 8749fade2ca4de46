package dev.sluice.noded.wire;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.StepLaunch;
import dev.sluice.protocol.v1.LaunchStepRequest;
import dev.sluice.protocol.v1.PtySize;
import java.util.Optional;

/**
 * The one mapping from the controller's {@code LaunchStepRequest} to the node's
 * {@link StepLaunch}, done after the launch's credential was checked on the request as it came.
 * The step launcher's frames with srun (its I/O socket) stay protobuf: they are that socket's
 * wire format.
 */
public final class StepLaunchMapper {
    private StepLaunchMapper() {}

    public static StepLaunch toStep(LaunchStepRequest r) {
        return new StepLaunch(
                r.getJobId(),
                r.getStepId(),
                new BatchJob.Owner(
                        r.getOwner().getUid(),
                        r.getOwner().getGid(),
                        r.getOwner().getUserName()),
                r.getArgvList(),
                r.getEnvironmentMap(),
                r.getWorkDir().isEmpty() ? Optional.empty() : Optional.of(r.getWorkDir()),
                new StepLaunch.Tasks(
                        r.getTaskIdsList(),
                        r.getNodeId(),
                        r.getNumNodes(),
                        r.getNumTasks(),
                        r.getNodeList(),
                        r.getTasksPerNode()),
                new StepLaunch.OnNode(
                        r.getCpusOnNode(),
                        r.getCoresList(),
                        r.getMemPerNodeMb(),
                        BatchJobMapper.grants(r.getGresList()),
                        r.getMpsPerGpuMap(),
                        r.getGpusPerTask()),
                new StepLaunch.Srun(
                        r.getIoHost(),
                        r.getIoPort(),
                        stdin(r),
                        r.hasPty() ? Optional.of(pty(r.getPty())) : Optional.empty()),
                r.getCredential());
    }

    /** srun's terminal size, as the launch carries it. */
    private static StepLaunch.Pty pty(PtySize size) {
        return new StepLaunch.Pty(size.getRows(), size.getCols());
    }

    private static StepLaunch.Stdin stdin(LaunchStepRequest r) {
        return switch (r.getStdinMode()) {
            case STDIN_ALL -> new StepLaunch.Stdin(StepLaunch.Stdin.Mode.ALL, 0);
            case STDIN_TASK -> new StepLaunch.Stdin(StepLaunch.Stdin.Mode.TASK, r.getStdinTask());
            // An srun from before the field sent none: every task reads /dev/null.
            case STDIN_NONE, UNRECOGNIZED -> StepLaunch.Stdin.NONE;
        };
    }
}
