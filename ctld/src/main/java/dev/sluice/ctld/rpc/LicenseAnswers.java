package dev.sluice.ctld.rpc;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.sched.LicenseUse;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.protocol.v1.GetLicensesResponse;
import dev.sluice.protocol.v1.LicenseInfo;
import java.util.Collection;
import java.util.List;

/** The controller's answers about slurm.conf's {@code Licenses}. */
final class LicenseAnswers {
    private LicenseAnswers() {}

    /**
     * Every configured license, in name order, with how many the running jobs hold and how many
     * reservations hold at {@code now}.
     */
    static GetLicensesResponse of(
            Licenses configured, Iterable<Job> jobs, Collection<Reservation> reservations, long now) {
        LicenseUse use = LicenseUse.of(configured, jobs);
        GetLicensesResponse.Builder out = GetLicensesResponse.newBuilder();
        configured.counts().forEach((name, total) -> {
            long reserved = 0;
            for (Reservation r : reservations) {
                reserved += r.licensesReserved(name, now);
            }
            out.addLicenses(LicenseInfo.newBuilder()
                    .setName(name)
                    .setTotal(total)
                    .setUsed(use.used(name))
                    .setReserved(reserved));
        });
        return out.build();
    }

    /** {@code scontrol update Licenses=} may name what submission may: configured, within totals. */
    static void checkUpdate(Licenses configured, List<JobChange> changes) {
        for (JobChange c : changes) {
            if (c instanceof JobChange.LicenseList l && !configured.admits(l.licenses())) {
                throw new SlurmException(ErrorCode.INVALID_LICENSES);
            }
        }
    }
}
