package dev.sluice.noded.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.job.PrologDone;
import dev.sluice.noded.job.TaskUsage;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the node tells the controller of an end, and the state a terminate ends a job in. */
class TestJobEndMapper {
    @Test
    void aTerminateEndsTheJobInTheStateTheControllerRecorded() {
        for (JobState s : JobState.values()) {
            assertThat(JobEndMapper.terminateReason(JobEndMapper.toWire(s))).isEqualTo(s);
        }
    }

    @Test
    void aTerminateThatNamesNoStateCancels() {
        assertThat(JobEndMapper.terminateReason(dev.sluice.protocol.v1.JobState.JOB_STATE_UNSPECIFIED))
                .isEqualTo(JobState.CANCELLED);
        assertThat(JobEndMapper.terminateReason(dev.sluice.protocol.v1.JobState.REQUEUED))
                .isEqualTo(JobState.CANCELLED);
    }

    @Test
    void anEndIsReportedWithEveryFieldAndItsStateOnlyWhenTheNodeEndedIt() {
        JobEnd timedOut = new JobEnd("n1", 12, 2, 15, true, true, Optional.of(JobState.TIMEOUT));
        assertThat(JobEndMapper.toWire(timedOut))
                .isEqualTo(JobCompleteRequest.newBuilder()
                        .setNodeName("n1")
                        .setJobId(12)
                        .setRestartCount(2)
                        .setExitStatus(15)
                        .setPrologFailed(true)
                        .setEpilogFailed(true)
                        .setEndState(dev.sluice.protocol.v1.JobState.TIMEOUT)
                        .build());

        JobEnd exited = new JobEnd("n1", 13, 0, 3 << 8, false, false, Optional.empty());
        assertThat(JobEndMapper.toWire(exited).getEndState())
                .isEqualTo(dev.sluice.protocol.v1.JobState.JOB_STATE_UNSPECIFIED);
        assertThat(JobEndMapper.toWire(exited).getExitStatus()).isEqualTo(3 << 8);
    }

    @Test
    void aPrologNoticeCarriesTheRunAndItsStatus() {
        assertThat(JobEndMapper.toWire(new PrologDone("n3", 7, 1, 2)))
                .isEqualTo(PrologCompleteRequest.newBuilder()
                        .setNodeName("n3")
                        .setJobId(7)
                        .setRestartCount(1)
                        .setStatus(2)
                        .build());
    }

    @Test
    void aTasksUsageIsSentFieldByField() {
        TaskUsage t = new TaskUsage(3, "n1", List.of(100, 101), 6.3, 1240, 13312, 3, 3_001_005, 30, 2_600_000);
        assertThat(JobEndMapper.toWire(t))
                .isEqualTo(dev.sluice.protocol.v1.TaskUsage.newBuilder()
                        .setTaskId(3)
                        .setNode("n1")
                        .addPids(100)
                        .addPids(101)
                        .setCpuSeconds(6.3)
                        .setRssKb(1240)
                        .setVmsizeKb(13312)
                        .setPages(3)
                        .setReadBytes(3_001_005)
                        .setWriteBytes(30)
                        .setCpuFreqKhz(2_600_000)
                        .build());
    }
}
