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
            + "nowd=; cd -- \"$w\" 2>/dev/null || { if [ ! -e \"$w\" ]; then nowd='No such file or directory'; "
            + "elif [ ! -d \"$w\" ]; then nowd='Not a directory'; else nowd='Permission denied'; fi; cd /tmp; }; ";

    /**
     * Slurm's words for a working directory the user cannot enter, once standard error is the
     * job's: twice, with the reason, as slurmstepd says it for the step and again for the task
     * (recorded from Slurm 22.05, compat 104).
     */
    static final String REPORT = "[ -z \"$nowd\" ] || { l=\"slurmstepd-$n: error: couldn't chdir to \\`$w': $nowd: "
            + "going to /tmp instead\"; echo \"$l\" >&2; echo \"$l\" >&2; }; ";

    private UserShell() {}

    /**
     * Resolves the command as slurmstepd does before its execve: a name without a slash is looked
     * up in the task's {@code PATH} (an executable file), else taken relative to the working
     * directory; what cannot be run ends the task with slurmstepd's line and errno as exit status
     * ({@code slurmstepd-n1: error: execve(): prog: No such file or directory}, 2; {@code
     * Permission denied}, 13) instead of the shell's own words and 127. A relative path is named
     * as srun made it, from the working directory ({@code /home/u/./x.sh}: compat 101).
     */
    static final String EXEC = "c=$1; case $c in */*) ;; *) o=$IFS; IFS=:; f=; "
            + "for d in $PATH; do [ -f \"${d:-.}/$c\" ] && [ -x \"${d:-.}/$c\" ] && { f=${d:-.}/$c; break; }; done; "
            + "IFS=$o; c=${f:-./$c} ;; esac; "
            + "case $1 in /*) p=$1 ;; */*) p=$w/$1 ;; *) p=$1 ;; esac; "
            + "if [ ! -e \"$c\" ]; then echo \"slurmstepd-$n: error: execve(): $p: No such file or directory\" >&2; exit 2; fi; "
            + "if [ -d \"$c\" ] || [ ! -x \"$c\" ]; then echo \"slurmstepd-$n: error: execve(): $p: Permission denied\" >&2; "
            + "exit 13; fi; shift; exec \"$c\" \"$@\"";

    /** A step task's {@code argv} run in {@code workDir} by a shell of the user's, with the user's umask. */
    static List<String> inWorkDir(String workDir, String nodeName, List<String> argv) {
        List<String> out = new java.util.ArrayList<>(List.of(
                "/bin/sh", "-c", "w=$1; n=$2; shift 2; " + ENTER + REPORT + EXEC, "slurmstepd", workDir, nodeName));
        out.addAll(argv);
        return out;
    }
}
