package dev.sluice.restd.slurm;

import java.util.Optional;

/**
 * The data parsers served, v0.0.42 to v0.0.45 (those Slinky's slurm-client speaks). Their
 * answers share one mapping: between these versions the fields this daemon fills differ only
 * where a method here says so, as Slurm's published documents for each version show.
 */
public enum ApiVersion {
    V0042("0.0.42"),
    V0043("0.0.43"),
    V0044("0.0.44"),
    V0045("0.0.45");

    private final String number;

    ApiVersion(String number) {
        this.number = number;
    }

    /** {@code 0.0.44}. */
    public String number() {
        return number;
    }

    /** {@code data_parser/v0.0.44}, as {@code meta.plugin.data_parser} names it. */
    public String dataParser() {
        return "data_parser/v" + number;
    }

    /** {@code /slurm/v0.0.44/}. */
    public String slurmPrefix() {
        return "/slurm/v" + number + "/";
    }

    /** {@code /slurmdb/v0.0.44/}. */
    public String slurmdbPrefix() {
        return "/slurmdb/v" + number + "/";
    }

    /** The version whose {@code /slurmdb/} tree {@code path} is in. */
    public static Optional<ApiVersion> ofSlurmdbPath(String path) {
        for (ApiVersion v : values()) {
            if (path.startsWith(v.slurmdbPrefix())) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The version whose {@code /slurm/} tree {@code path} is in. */
    public static Optional<ApiVersion> ofPath(String path) {
        for (ApiVersion v : values()) {
            if (path.startsWith(v.slurmPrefix())) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** v0.0.45 dropped the deprecated {@code pinged} and {@code mode} of a ping for {@code status}. */
    boolean pingHasStatus() {
        return this.compareTo(V0045) >= 0;
    }
}
