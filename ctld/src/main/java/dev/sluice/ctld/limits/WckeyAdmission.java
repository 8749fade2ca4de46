package dev.sluice.ctld.limits;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.JobWckey;

/**
 * The wckey a job runs under, settled at submit as Slurm 22.05 settles it (compat 218, 220).
 * Without {@code TrackWCKey} a job keeps none, whatever it asked. Tracked, a job that named one
 * keeps it, and one that did not takes its user's default, marked as such ({@code *NAME}), or
 * the bare mark when the user has none. Under {@code AccountingStorageEnforce=wckeys} a wckey
 * the user does not hold, or no wckey at all for a user without a default, is refused. Pure.
 */
public final class WckeyAdmission {
    private WckeyAdmission() {}

    /**
     * @param asked the job's {@code --wckey} ({@link JobWckey#NONE}: none given)
     * @throws SlurmException {@code Invalid wckey specification} when enforcement refuses it
     */
    public static JobWckey resolve(PolicyView view, String user, JobWckey asked) {
        if (!view.tracksWckeys()) {
            return JobWckey.NONE;
        }
        boolean enforced = view.enforcement().wckeys();
        UserWckeys wckeys = view.policy().wckeys();
        if (asked.isNone()) {
            return wckeys.defaultOf(user).map(JobWckey::userDefault).orElseGet(() -> {
                if (enforced) {
                    throw new SlurmException(ErrorCode.INVALID_WCKEY);
                }
                return JobWckey.userDefault("");
            });
        }
        if (enforced && !wckeys.holds(user, asked.name())) {
            throw new SlurmException(ErrorCode.INVALID_WCKEY);
        }
        return asked;
    }
}
