package dev.sluice.noded.wire;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.job.PrologDone;
import dev.sluice.noded.job.TaskUsage;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.PrologCompleteRequest;

/**
 * Job states, ends and usage between the node's values and the controller's messages: the
 * state a terminate names; the end reports and Prolog notices the outbox keeps for the registrar
 * to send, in the messages it sends them in; and sstat's task usage.
 */
public final class JobEndMapper {
    private JobEndMapper() {}

    /**
     * The state a terminate ends the job in: the one the controller recorded; a terminate that
     * names none (an older controller) cancels, as it always did. The wire's accounting-only
     * REQUEUED is never a terminate's: it cancels too.
     */
    public static JobState terminateReason(dev.sluice.protocol.v1.JobState wire) {
        return switch (wire) {
            case JOB_STATE_UNSPECIFIED, REQUEUED, UNRECOGNIZED -> JobState.CANCELLED;
            default -> JobState.valueOf(wire.name());
        };
    }

    public static dev.sluice.protocol.v1.JobState toWire(JobState state) {
        return dev.sluice.protocol.v1.JobState.valueOf(state.name());
    }

    public static JobCompleteRequest toWire(JobEnd end) {
        JobCompleteRequest.Builder report = JobCompleteRequest.newBuilder()
                .setNodeName(end.nodeName())
                .setJobId(end.jobId())
                .setRestartCount(end.restartCount())
                .setExitStatus(end.exitStatus())
                .setPrologFailed(end.prologFailed())
                .setEpilogFailed(end.epilogFailed());
        end.endState().ifPresent(s -> report.setEndState(toWire(s)));
        return report.build();
    }

    public static PrologCompleteRequest toWire(PrologDone done) {
        return PrologCompleteRequest.newBuilder()
                .setNodeName(done.nodeName())
                .setJobId(done.jobId())
                .setRestartCount(done.restartCount())
                .setStatus(done.status())
                .build();
    }

    public static dev.sluice.protocol.v1.TaskUsage toWire(TaskUsage t) {
        return dev.sluice.protocol.v1.TaskUsage.newBuilder()
                .setTaskId(t.taskId())
                .setNode(t.node())
                .addAllPids(t.pids())
                .setCpuSeconds(t.cpuSeconds())
                .setRssKb(t.rssKb())
                .setVmsizeKb(t.vmsizeKb())
                .setPages(t.pages())
                .setReadBytes(t.readBytes())
                .setWriteBytes(t.writeBytes())
                .setCpuFreqKhz(t.cpuFreqKhz())
                .build();
    }
}
