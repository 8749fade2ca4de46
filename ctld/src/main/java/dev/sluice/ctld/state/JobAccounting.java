package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;

/**
 * What a job is charged to and draws from: {@code --account}, {@code --qos},
 * {@code --reservation}, {@code --licenses} and {@code --wckey}; empty: not given.
 */
public record JobAccounting(String account, String qos, String reservation, Licenses licenses, JobWckey wckey) {
    public JobAccounting {
        requireNonNull(reservation, "reservation is null");
        requireNonNull(licenses, "licenses is null");
        requireNonNull(wckey, "wckey is null");
    }
}
