package dev.sluice.restd;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the daemon may start as the user it runs as. As slurmrestd 22.05, it will not run as
 * root (its local mode would lend root's rights to whoever reaches the socket) unless
 * {@code SLURMRESTD_SECURITY=disable_user_check} says the site means it. slurmrestd 22.05 was
 * seen to start as SlurmUser and on TCP with {@code rest_auth/local} (refusing each request
 * there), so neither is refused here.
 */
final class LocalMode {
    private LocalMode() {}

    /** Why the daemon must not start; empty when it may. */
    static Optional<String> refusal(long uid, Map<String, String> env) {
        boolean checked = Arrays.stream(
                        env.getOrDefault("SLURMRESTD_SECURITY", "").split(","))
                .map(String::strip)
                .noneMatch("disable_user_check"::equals);
        if (checked && uid == 0) {
            return Optional.of("sluice-restd should not be run as the root user.");
        }
        return Optional.empty();
    }
}
