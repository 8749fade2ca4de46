package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;

/** One output line: a job (allocation) or one of its steps ({@code step} set). */
record SacctRow(AccountedJob job, AccountedStep step) {
    /** SLURM_BATCH_SCRIPT and SLURM_EXTERN_CONT as unsigned 32-bit step ids. */
    static final int BATCH = dev.sluice.common.slurm.StepIds.BATCH;

    static final int EXTERN = dev.sluice.common.slurm.StepIds.EXTERN;

    SacctRow {
        requireNonNull(job, "job is null");
    }

    boolean isStep() {
        return step != null;
    }

    /** {@code 12}, {@code 12.batch}, {@code 12.0}; array tasks as {@code 6_1}, {@code 6_1.batch}. */
    String jobId() {
        String id = job.getDisplayId().isEmpty() ? Integer.toUnsignedString(job.getJobId()) : job.getDisplayId();
        return step == null ? id : id + "." + stepName(step.getStepId());
    }

    /** The job's own number whatever array it belongs to: {@code 7}, {@code 7.batch}. */
    String rawJobId() {
        String id = Integer.toUnsignedString(job.getJobId());
        return step == null ? id : id + "." + stepName(step.getStepId());
    }

    static String stepName(int stepId) {
        return dev.sluice.common.slurm.StepIds.name(stepId);
    }
}
