package dev.sluice.ctld.rpc;

/** The version daemons report; follows Slurm's numbering of the release it matches. */
public final class Version {
    public static final String VERSION = "22.05.8-sluice-0.1";

    private Version() {}
}
