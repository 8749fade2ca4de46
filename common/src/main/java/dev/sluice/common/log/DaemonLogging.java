package dev.sluice.common.log;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * One logging framework for a daemon: slf4j, written by logback ({@code logback.xml}). gRPC and
 * its netty log through {@code java.util.logging}, and so does {@code System.Logger} (the JDK's
 * own logging, whose default backend it is); {@link #install} routes it into slf4j. Each
 * daemon's {@code main} calls it before anything logs. (A System.Logger provider for slf4j on
 * the class path would do the same for System.Logger, but the commands share that class path,
 * and every command JVM asks System.Logger once at exit: it would start logback each time.)
 *
 * <p>gRPC reports every connection that did not speak HTTP/2 — a port scan, a stray HTTP
 * request, random bytes — as "Transport failed" with a full stack trace (about 25 lines).
 * Those become one {@link QuietLog} line each, rate limited like every other refused connection.
 */
public final class DaemonLogging {
    /** grpc-netty-shaded's connection log ({@code NettyServerTransport}'s "%s.connections"). */
    static final String GRPC_CONNECTIONS = "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections";

    // java.util.logging keeps loggers weakly: this reference keeps the filter set on it.
    private static final Logger GRPC_CONNECTION_LOG = Logger.getLogger(GRPC_CONNECTIONS);

    private DaemonLogging() {}

    /** Routes java.util.logging into slf4j (once) and quiets gRPC's transport failures. */
    public static void install() {
        install(QuietLog.named("gRPC"));
    }

    /** @param grpc where gRPC's transport failures go */
    static synchronized void install(QuietLog grpc) {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        GRPC_CONNECTION_LOG.setFilter(transportFailures(grpc));
    }

    /**
     * Passes records without an exception on; turns each failed transport into a QuietLog line.
     * The transport does not name its peer here, so the lines share one key per window.
     */
    static Filter transportFailures(QuietLog quiet) {
        return (LogRecord record) -> {
            Throwable failure = record.getThrown();
            if (failure == null) {
                return true;
            }
            quiet.warn(null, "connection dropped on a gRPC port", reason(failure));
            return false;
        };
    }

    /** The failure's message without its class path, or its simple class name. */
    static String reason(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }
}
