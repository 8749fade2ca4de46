package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The licenses jobs hold: a job holds its {@code --licenses} from its start until it no longer
 * holds its nodes (as Slurm takes them at allocation and gives them back when the job ends), so
 * the jobs holding licenses are the jobs holding resources. Mutable within one scheduling pass.
 */
public final class LicenseUse {
    private final Licenses configured;
    private final Map<String, Long> used = new HashMap<>();

    private LicenseUse(Licenses configured) {
        this.configured = configured;
    }

    /** What the jobs that hold resources hold, out of {@code configured}. */
    public static LicenseUse of(Licenses configured, Iterable<Job> jobs) {
        LicenseUse use = new LicenseUse(configured);
        for (Job job : jobs) {
            if (job.isRunning()) {
                use.take(job.request().licenses());
            }
        }
        return use;
    }

    /** In use now: running jobs' licenses, counted whether or not they are still configured. */
    public long used(String name) {
        return used.getOrDefault(name, 0L);
    }

    /** Whether every license of {@code wanted} has that many free now. */
    public boolean fits(Licenses wanted) {
        return fits(wanted, name -> 0);
    }

    /**
     * Whether every license of {@code wanted} has that many free now beside {@code kept} of it:
     * what reservations keep from the job, whether or not their own jobs use them (Slurm 22.05's
     * license_job_test: wanted + used + reserved elsewhere within the total, compat 284).
     */
    public boolean fits(Licenses wanted, ToLongFunction<String> kept) {
        for (Map.Entry<String, Long> e : wanted.counts().entrySet()) {
            String name = e.getKey();
            if (used(name) + e.getValue() + kept.applyAsLong(name) > configured.count(name)) {
                return false;
            }
        }
        return true;
    }

    /** A job started with these licenses. */
    public void take(Licenses licenses) {
        licenses.counts().forEach((name, count) -> used.merge(name, count, Long::sum));
    }
}
