package dev.sluice.ctld.state;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import org.junit.jupiter.api.Test;

/** The times scontrol show job reports beside submit, start and end (Slurm 22.05's, compat 057). */
class TestJobTimes {
    private static final long SUBMIT = 1_000;

    @Test
    void aJobSubmittedHeldIsNotEligibleAndAccruesNothing() {
        Job held = Job.submitted(1, aJob().hold().build(), "p", 10, SUBMIT);
        assertThat(JobTimes.eligible(held)).isZero();
        assertThat(JobTimes.accrue(held)).isZero();
    }

    @Test
    void aJobHeldByAnAdministratorIsNotEligibleEither() {
        Job held = Job.submitted(1, aJob().build(), "p", 10, SUBMIT).with(b -> b.hold(Job.Hold.ADMIN));
        assertThat(JobTimes.eligible(held)).isZero();
    }

    @Test
    void aJobNotHeldIsEligibleFromSubmission() {
        Job job = Job.submitted(1, aJob().build(), "p", 10, SUBMIT);
        assertThat(JobTimes.eligible(job)).isEqualTo(SUBMIT);
        assertThat(JobTimes.accrue(job)).isEqualTo(SUBMIT);
    }

    @Test
    void aJobWaitingForADependencyIsNotEligibleYet() {
        // 22.05: eligible_time and accrue_time 0 while squeue shows it pending for Dependency (compat 146).
        Job job = Job.submitted(1, aJob().build(), "p", 10, SUBMIT);
        assertThat(JobTimes.eligible(job, JobReason.DEPENDENCY)).isZero();
        assertThat(JobTimes.accrue(job, JobReason.DEPENDENCY)).isZero();
        assertThat(JobTimes.eligible(job, JobReason.RESOURCES)).isEqualTo(SUBMIT);
        Job done = job.with(b -> b.state(JobState.COMPLETED));
        assertThat(JobTimes.eligible(done, JobReason.DEPENDENCY)).isEqualTo(SUBMIT);
    }

    @Test
    void thePassThatLookedAtAPendingJobIsTheOneItsSubmissionTriggered() {
        Job held = Job.submitted(1, aJob().hold().build(), "p", 10, SUBMIT);
        assertThat(JobTimes.lastSchedEval(held)).isEqualTo(SUBMIT);
    }

    @Test
    void thePassThatLookedAtAStartedJobIsTheOneThatStartedIt() {
        Job started = Job.submitted(1, aJob().build(), "p", 10, SUBMIT)
                .with(b -> b.state(JobState.RUNNING).startTime(SUBMIT + 5));
        assertThat(JobTimes.lastSchedEval(started)).isEqualTo(SUBMIT + 5);
    }
}
