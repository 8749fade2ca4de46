package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Reservation;
import java.util.HashMap;
import java.util.Map;

/**
 * A reservation's {@code Licenses=}, checked as Slurm 22.05 checks them (compat 283, 285): every
 * license configured in slurm.conf and, with those of the other reservations whose window meets
 * {@code [from, to)}, no more than configured; else "Invalid license specification".
 */
final class ReservationLicenses {
    /**
     * Slurm's NO_VAL as a time: an update without {@code StartTime=} (or {@code EndTime=}) checks
     * the licenses over {@code [NO_VAL, NO_VAL)}, which no reservation meets, so against the
     * totals alone (compat 285).
     */
    static final long NO_VAL_TIME = dev.sluice.common.slurm.SlurmLimits.NO_VAL;

    private ReservationLicenses() {}

    /**
     * The licenses typed, checked.
     *
     * @param name the reservation's own name: its own licenses are not counted twice
     * @throws SlurmException INVALID_LICENSES
     */
    static Licenses checked(String typed, Licenses configured, ClusterView state, String name, long from, long to) {
        Licenses wanted;
        try {
            wanted = Licenses.parse(typed);
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_LICENSES);
        }
        if (!known(configured, wanted)) {
            throw new SlurmException(ErrorCode.INVALID_LICENSES);
        }
        Map<String, Long> merged = new HashMap<>(wanted.counts());
        for (Reservation r : state.reservations().byName().values()) {
            // Slurm compares the stored window, not a repeating one's later ones.
            if (r.name().equals(name) || r.end() <= from || r.start() >= to) {
                continue;
            }
            r.licenses().counts().forEach((license, count) -> merged.merge(license, count, Long::sum));
        }
        for (Map.Entry<String, Long> e : merged.entrySet()) {
            if (e.getValue() > configured.count(e.getKey())) {
                throw new SlurmException(ErrorCode.INVALID_LICENSES);
            }
        }
        return wanted;
    }

    private static boolean known(Licenses configured, Licenses wanted) {
        for (String license : wanted.counts().keySet()) {
            if (!configured.counts().containsKey(license)) {
                return false;
            }
        }
        return configured.admits(wanted);
    }
}
