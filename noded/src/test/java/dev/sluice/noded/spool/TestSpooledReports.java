package dev.sluice.noded.spool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.JobCompleteRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's end in the spool until the controller acknowledges it, across restarts and an upgrade. */
class TestSpooledReports {
    @TempDir
    Path dir;

    private static JobCompleteRequest report(int jobId, int status) {
        return JobCompleteRequest.newBuilder()
                .setJobId(jobId)
                .setNodeName("n1")
                .setExitStatus(status)
                .build();
    }

    @Test
    void aSavedReportIsPendingAfterARestartUntilForgottenAndItsJobIsNotReadopted() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        spool.writeFact(7, "job.pid", "1234");
        spool.writeFact(8, "job.pid", "1235");
        spool.saveReport(report(7, 3 << 8));

        JobSpool restarted = new JobSpool(dir.resolve("spool"));
        assertThat(restarted.pendingReports()).containsExactly(report(7, 3 << 8));
        assertThat(restarted.unfinishedJobs()).containsExactly(8);
        assertThat(spool.jobDir(7).toFile().list())
                .as("the report is one more line of the job's facts")
                .containsExactly(JobFacts.FILE);

        restarted.forget(7);
        assertThat(restarted.pendingReports()).isEmpty();
        assertThat(restarted.knows(7)).isFalse();
    }

    @Test
    void aReportAnEarlierVersionSavedAsAFileIsStillPending() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        Files.createDirectories(spool.jobDir(9));
        Files.write(spool.jobDir(9).resolve("complete.pb"), report(9, 0).toByteArray());
        spool.writeFact(10, "job.pid", "99");

        assertThat(spool.pendingReports()).isEqualTo(List.of(report(9, 0)));
        assertThat(spool.unfinishedJobs()).containsExactly(10);
    }

    @Test
    void aReportCutShortByACrashIsNotTakenForOne() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        spool.writeFact(11, "wait_status", "0");
        // The daemon died in the middle of the line: no newline, so no report, and the job is
        // read again from its facts at the next start.
        Files.writeString(
                spool.jobDir(11).resolve(JobFacts.FILE), "complete=CAsSAm4x", java.nio.file.StandardOpenOption.APPEND);

        assertThat(spool.pendingReports()).isEmpty();
        assertThat(spool.unfinishedJobs()).containsExactly(11);
    }
}
