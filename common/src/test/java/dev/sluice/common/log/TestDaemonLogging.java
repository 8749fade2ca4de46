package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What gRPC (java.util.logging) and the JDK (System.Logger) write ends up in logback. */
class TestDaemonLogging {
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();
    private Logger root;

    @BeforeEach
    void capture() {
        DaemonLogging.install();
        root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        seen.start();
        root.addAppender(seen);
    }

    @AfterEach
    void release() {
        root.detachAppender(seen);
    }

    @Test
    void javaUtilLoggingAndSystemLoggerReachLogback() {
        java.util.logging.Logger.getLogger("io.example.Jul").warning("from java.util.logging");
        System.getLogger("jdk.example").log(System.Logger.Level.WARNING, "from System.Logger");
        assertThat(seen.list)
                .extracting(ILoggingEvent::getLoggerName, ILoggingEvent::getFormattedMessage)
                .contains(
                        org.assertj.core.groups.Tuple.tuple("io.example.Jul", "from java.util.logging"),
                        org.assertj.core.groups.Tuple.tuple("jdk.example", "from System.Logger"));
    }

    @Test
    void grpcTransportFailuresAreOneQuietLine() {
        // A limiter of this test's own, so that the first failure is the one to get through.
        DaemonLogging.install(new QuietLog(
                LoggerFactory.getLogger("gRPC"),
                new RateLimiter(java.time.InstantSource.system(), QuietLog.WINDOW, 4)));
        java.util.logging.Logger grpc = java.util.logging.Logger.getLogger(DaemonLogging.GRPC_CONNECTIONS);
        for (int i = 0; i < 20; i++) {
            grpc.log(
                    java.util.logging.Level.INFO,
                    "Transport failed",
                    new IllegalStateException("HTTP/2 client preface string missing or corrupt"));
        }
        assertThat(seen.list)
                .filteredOn(e ->
                        e.getLoggerName().equals("gRPC") || e.getLoggerName().startsWith("io.grpc"))
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("connection dropped on a gRPC port: HTTP/2 client preface string missing or corrupt");
        assertThat(seen.list).allMatch(e -> e.getThrowableProxy() == null);
    }
}
