package dev.sluice.cli.agent;

import dev.sluice.cli.UserDirectory;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.channels.SocketChannel;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is on the other end of a Unix socket, as the kernel says ({@code SO_PEERCRED}): the uid
 * and gid of the process that connected. This is the agent's only source of identity; a client
 * cannot choose what the kernel reports.
 *
 * <p>The JDK hands the credential over as principals whose numeric ids sit in
 * {@code sun.nio.fs} (opened with {@code --add-opens java.base/sun.nio.fs=ALL-UNNAMED}); without
 * that the names are resolved through the user directory, and a caller that resolves to
 * nothing is refused rather than guessed.
 */
final class PeerCredentials {
    /** The peer's numeric ids and user name. */
    record Peer(long uid, long gid, String userName) {}

    private final UserDirectory users;

    PeerCredentials(UserDirectory users) {
        this.users = users;
    }

    Peer of(SocketChannel channel) throws IOException {
        UnixDomainPrincipal principal = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
        UserDirectory users = this.users.current();
        long uid = numericId(principal.user(), "uid")
                .orElseGet(() -> users.uid(principal.user().getName()).orElse(-1L));
        if (uid < 0) {
            throw new IOException(
                    "cannot resolve the peer user '" + principal.user().getName() + "'");
        }
        long gid = numericId(principal.group(), "gid")
                .orElseGet(() -> parse(principal.group().getName()));
        if (gid < 0) {
            throw new IOException(
                    "cannot resolve the peer group '" + principal.group().getName() + "'");
        }
        String name = users.userName(uid).orElse(principal.user().getName());
        return new Peer(uid, gid, name);
    }

    private static java.util.Optional<Long> numericId(Object principal, String accessor) {
        if (!(principal instanceof UserPrincipal) && !(principal instanceof GroupPrincipal)) {
            return java.util.Optional.empty();
        }
        for (Class<?> c = principal.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(accessor);
                m.setAccessible(true);
                return java.util.Optional.of(((Number) m.invoke(principal)).longValue());
            } catch (NoSuchMethodException e) {
                // declared further up
            } catch (ReflectiveOperationException | RuntimeException e) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
