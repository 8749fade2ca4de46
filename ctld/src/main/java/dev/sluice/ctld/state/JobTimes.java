package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;

/**
 * The times {@code scontrol show job} reports beside submit, start and end, decided in one
 * place. 0 means never (printed {@code Unknown}).
 *
 * <p>Slurm counts a job eligible only once nothing but resources keeps it waiting: a held job
 * (priority 0) is not, so it shows {@code EligibleTime=Unknown}, and it accrues no age either
 * ({@code AccrueTime=Unknown}). Sluice accrues age from the moment a job is eligible, so the two
 * are the same time here.
 */
public final class JobTimes {
    private JobTimes() {}

    /** When the job became (or becomes, for a begin time ahead) eligible to start. */
    public static long eligible(Job job) {
        return heldPending(job) ? 0 : job.run().eligibleTime();
    }

    /**
     * The same as the job is shown pending for {@code reason}: one waiting for a dependency is
     * not eligible yet either (22.05: {@code eligible_time} 0, compat 146).
     */
    public static long eligible(Job job, JobReason reason) {
        return reason == JobReason.DEPENDENCY && job.isPending() ? 0 : eligible(job);
    }

    /**
     * A pending job's start as squeue ({@code %S}, {@code --start}) and scontrol show it: the
     * scheduler's estimate ({@code estimate}, 0 for none), else its {@code --begin} time while
     * that is still ahead, which Slurm 22.05 takes as the job's start time from submission
     * (compat 261; once it has passed, a job no pass placed shows none: compat 255); 0 for
     * neither.
     */
    public static long expectedStart(Job job, long estimate, long now) {
        long begin = job.request().sequencing().beginTime();
        return estimate > 0 ? estimate : begin > now ? begin : 0;
    }

    /**
     * A pending job's end as shown beside an expected start: that start plus its time limit, as
     * Slurm's controller sets it (compat 261); 0 without a start or a finite limit.
     */
    public static long expectedEnd(Job job, long start) {
        long limit = job.terms().timeLimitMinutes();
        return start <= 0 || limit >= JobRequest.TIME_NOT_SET ? 0 : start + limit * 60;
    }

    /**
     * Whether a pending job, started {@code now}, could no longer end before its
     * {@code --deadline}: Slurm 22.05's deadline_ok, which ends such a job DEADLINE when a
     * scheduler pass considers it (a held job or one waiting for its dependency or begin time is
     * not considered). A job without a finite time limit never misses it.
     */
    public static boolean missesDeadline(Job job, long now) {
        long deadline = job.request().sequencing().deadline();
        long limit = job.terms().timeLimitMinutes();
        return deadline > 0 && limit < JobRequest.TIME_NOT_SET && deadline < now + limit * 60;
    }

    /** When the job began accruing age priority. */
    public static long accrue(Job job) {
        return eligible(job);
    }

    /** The same as the job is shown pending for {@code reason}. */
    public static long accrue(Job job, JobReason reason) {
        return eligible(job, reason);
    }

    /**
     * When a scheduler pass last looked at the job. Sluice runs a pass on every submission and
     * keeps no per-job record of later ones, so: the pass that started a job that got nodes,
     * else the one its submission triggered (which also looks at held jobs, as Slurm's does).
     */
    public static long lastSchedEval(Job job) {
        return job.run().startTime() > 0 ? job.run().startTime() : job.run().submitTime();
    }

    private static boolean heldPending(Job job) {
        return job.isPending() && job.terms().hold() != Job.Hold.NONE;
    }
}
