package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.BatchJobBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** slurmstepd's line in a job's error file when it is told to end the job (Slurm 22.05's words). */
class TestEndNotice {
    private static final Instant AT = Instant.parse("2026-12-04T15:10:00Z");

    @Test
    void aCancelATimeLimitAndAPreemptionAreAnnouncedOthersAreNot() {
        assertThat(EndNotice.text("n1", 12, JobState.CANCELLED, AT, ZoneOffset.UTC))
                .contains("slurmstepd-n1: error: *** JOB 12 ON n1 CANCELLED AT 2026-12-04T15:10:00 ***");
        assertThat(EndNotice.text("n1", 12, JobState.TIMEOUT, AT, ZoneOffset.ofHours(1)))
                .contains(
                        "slurmstepd-n1: error: *** JOB 12 ON n1 CANCELLED AT 2026-12-04T16:10:00 DUE TO TIME LIMIT ***");
        // Requeued by preemption, too, is announced so (compat 243).
        assertThat(EndNotice.text("n1", 12, JobState.PREEMPTED, AT, ZoneOffset.UTC))
                .contains(
                        "slurmstepd-n1: error: *** JOB 12 ON n1 CANCELLED AT 2026-12-04T15:10:00 DUE TO PREEMPTION ***");
        assertThat(EndNotice.text("n1", 12, JobState.NODE_FAIL, AT, ZoneOffset.UTC))
                .isEmpty();
    }

    @Test
    void itIsAppendedToTheErrorFileByTheJobsUser() {
        BatchJob request = BatchJobBuilder.job(12)
                .io(new BatchJob.Io(
                        Optional.of("/home/u"),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of("err-%j.txt"),
                        OpenMode.NOT_GIVEN))
                .owner(1000, 100, "u")
                .build();
        assertThat(EndNotice.command(request, "n1", 0, "LINE"))
                .startsWith("setpriv", "--reuid=1000", "--regid=100", "--init-groups", "--")
                .endsWith("slurmstepd", "/home/u", "/home/u/err-12.txt", "LINE");
        assertThat(EndNotice.command(request, "n1", 1000, "LINE")).first().isEqualTo("/bin/sh");
    }
}
