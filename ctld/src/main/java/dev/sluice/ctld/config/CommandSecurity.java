package dev.sluice.ctld.config;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import java.util.Optional;

/**
 * What {@code slurm.conf} (and sluice.conf) say about the user commands' access: see
 * docs/security.md.
 *
 * @param userTokens the {@code auth/jwt} key ({@code AuthAltTypes=auth/jwt},
 *     {@code AuthAltParameters=jwt_key=PATH}); empty when JWT is off
 * @param slurmUser {@code SlurmUser}: an operator, like root
 * @param privateJobs {@code PrivateData=jobs}: non-operators see only their own jobs
 * @param maxScriptBytes {@code SchedulerParameters=max_script_size=} (Slurm's default 4 MB)
 * @param maxEnvBytes the largest job environment accepted, all {@code NAME=value} strings together
 * @param commandSocket the Unix socket local commands use (peer credentials say who they are);
 *     empty for none
 */
public record CommandSecurity(
        Optional<UserTokens> userTokens,
        String slurmUser,
        boolean privateJobs,
        long maxScriptBytes,
        long maxEnvBytes,
        String commandSocket) {
    /** Slurm's default {@code max_script_size}. */
    public static final long DEFAULT_MAX_SCRIPT_BYTES = 4L * 1024 * 1024;

    /** Same bound as the script: both travel in one frame of at most 16 MiB. */
    public static final long DEFAULT_MAX_ENV_BYTES = 4L * 1024 * 1024;

    /** The socket's file name under StateSaveLocation unless sluice.conf's CommandSocket says otherwise. */
    public static final String SOCKET_FILE = "slurmctld.socket";

    public CommandSecurity {
        requireNonNull(userTokens, "userTokens is null");
        requireNonNull(slurmUser, "slurmUser is null");
        requireNonNull(commandSocket, "commandSocket is null");
    }

    /**
     * Refuses a batch script over {@code max_script_size} or an environment over its bound with
     * Slurm's answer to an oversized script, text and all.
     *
     * @param scriptBytes the script's length in bytes
     * @param environmentBytes every {@code NAME=value} string of the environment with its NUL
     */
    public void checkJobSize(long scriptBytes, long environmentBytes) {
        if (scriptBytes > maxScriptBytes || environmentBytes > maxEnvBytes) {
            throw new SlurmException(ErrorCode.PATHNAME_TOO_LONG);
        }
    }

    /** No JWT, SlurmUser root, everything visible, Slurm's size limits, socket under {@code stateDir}. */
    public static CommandSecurity defaults(String stateDir) {
        return new CommandSecurity(
                Optional.empty(),
                "root",
                false,
                DEFAULT_MAX_SCRIPT_BYTES,
                DEFAULT_MAX_ENV_BYTES,
                java.nio.file.Path.of(stateDir).resolve(SOCKET_FILE).toString());
    }
}
