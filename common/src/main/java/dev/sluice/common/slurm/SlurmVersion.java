package dev.sluice.common.slurm;

/**
 * The Slurm release whose interface Sluice implements, as its user commands report it. Tools
 * read {@code sinfo --version} or {@code scontrol --version} to decide which options and output
 * forms to expect, so the commands print the line Slurm 22.05.8's do (Debian's build names its
 * package {@code slurm-wlm}; the differential suite's oracle was that build).
 */
public final class SlurmVersion {
    /** Slurm's release number: {@code 22.05.8}. */
    public static final String RELEASE = "22.05.8";

    /** What every user command's {@code -V/--version} prints. */
    public static final String COMMAND_LINE = "slurm-wlm " + RELEASE;

    private SlurmVersion() {}
}
