package dev.sluice.common.log;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a daemon reports a connection it refused or dropped — junk bytes, a frame that does not
 * decode, a credential that does not verify: one short warning, never a stack trace, at most
 * one per peer and kind of trouble per {@link #WINDOW}, the next one saying how many were kept
 * quiet in between ({@code (N more suppressed)}). Anyone can open a connection; what they send
 * must not decide how much a daemon writes.
 *
 * <p>The text a peer chose (an exception message quoting its bytes, a user name) is cut to one
 * line of at most {@value #MAX_DETAIL} characters, so it cannot forge log lines either.
 */
public final class QuietLog {
    /** How long one line speaks for its peer and kind. */
    public static final Duration WINDOW = Duration.ofSeconds(60);

    /** Peers remembered at once; more share one line per window ({@link RateLimiter#OTHERS}). */
    static final int MAX_PEERS = 64;

    static final int MAX_DETAIL = 200;

    /** One limiter per process: a flood spread over a daemon's ports is still one flood. */
    private static final RateLimiter SHARED = new RateLimiter(InstantSource.system(), WINDOW, MAX_PEERS);

    private final Logger log;
    private final RateLimiter limiter;

    public QuietLog(Logger log, RateLimiter limiter) {
        this.log = requireNonNull(log, "log is null");
        this.limiter = requireNonNull(limiter, "limiter is null");
    }

    /** Lines under {@code owner}'s logger, limited with every other QuietLog of this process. */
    public static QuietLog of(Class<?> owner) {
        return new QuietLog(LoggerFactory.getLogger(owner), SHARED);
    }

    /** Lines under the logger {@code name} (one that is not a class: gRPC's transport). */
    public static QuietLog named(String name) {
        return new QuietLog(LoggerFactory.getLogger(name), SHARED);
    }

    /**
     * {@code what from peer: detail}, or {@code what: detail} without a peer.
     *
     * @param peer the remote host (no port: every connection has a new one), a local user
     *     ({@code uid 1000}), or null when the transport does not say
     * @param what the kind of trouble, fixed text ("malformed request", "refused REQUEST_PING")
     * @param detail why, often the peer's doing (an exception's message)
     */
    public void warn(String peer, String what, String detail) {
        String who = peer == null ? null : oneLine(peer, 64);
        long quiet = limiter.admit(log.getName() + "|" + (who == null ? "" : who) + "|" + what);
        if (quiet == RateLimiter.QUIET) {
            return;
        }
        StringBuilder line = new StringBuilder(what);
        if (who != null) {
            line.append(" from ").append(who);
        }
        line.append(": ").append(oneLine(String.valueOf(detail), MAX_DETAIL));
        if (quiet > 0) {
            line.append(" (").append(quiet).append(" more suppressed)");
        }
        log.warn("{}", line);
    }

    /** The host of a remote address, without its port (null stays null). */
    public static String host(SocketAddress remote) {
        if (remote instanceof InetSocketAddress a && a.getAddress() != null) {
            return a.getAddress().getHostAddress();
        }
        return remote == null ? null : remote.toString();
    }

    /** Control characters (line breaks first) become '?', and long text ends in "...". */
    static String oneLine(String text, int max) {
        StringBuilder b = new StringBuilder(Math.min(text.length(), max + 3));
        for (int i = 0; i < text.length() && b.length() < max; i++) {
            char c = text.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        if (text.length() > max) {
            b.append("...");
        }
        return b.toString();
    }
}
