package dev.sluice.noded.launch;

import java.util.List;

/**
 * What a job's process does first, already as the job's user: take the umask the submitter had
 * ({@code SLURM_UMASK}, default 022, since the daemon's own is 077) and enter the job's working
 * directory, or {@code /tmp} when the user cannot (Slurm's slurmstepd does the same, as the
 * user). Like slurmstepd it drops {@code SLURM_UMASK} once applied: the job does not see it.
 * The daemon never enters or tests a user's directory with its own rights.
 */
final class UserShell {
    /** Takes the umask, enters {@code $w} (or /tmp, noting it in {@code $nowd}). */
    static final String ENTER = "umask \"${SLURM_UMASK:-0022}\" 2>/dev/null || umask 0022; unset SLURM_UMASK; "
            + "nowd=; cd -- \"$w\" 2>/dev/null || { nowd=1; cd /tmp; }; ";

    /** Slurm's words for a working directory the user cannot enter, once standard error is the job's. */
    static final String REPORT =
            "[ -z \"$nowd\" ] || echo \"slurmstepd: error: couldn't chdir to \\`$w': going to /tmp instead\" >&2; ";

    private UserShell() {}

    /** {@code argv} run in {@code workDir} by a shell of the user's, with the user's umask. */
    static List<String> inWorkDir(String workDir, List<String> argv) {
        List<String> out = new java.util.ArrayList<>(
                List.of("/bin/sh", "-c", "w=$1; shift; " + ENTER + REPORT + "exec \"$@\"", "slurmstepd", workDir));
        out.addAll(argv);
        return out;
    }
}
