package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestQuietLog {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-02T04:00:00Z"));
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private QuietLog quiet;

    @BeforeEach
    void capture() {
        Logger logger = new LoggerContext().getLogger("dev.sluice.test.FrameServer");
        lines.start();
        logger.addAppender(lines);
        InstantSource clock = now::get;
        quiet = new QuietLog(logger, new RateLimiter(clock, QuietLog.WINDOW, 8));
    }

    @Test
    void aFloodFromOnePeerIsOneLineAWindowCountingTheRest() {
        for (int i = 0; i < 1000; i++) {
            quiet.warn("10.1.2.3", "malformed request", "frame of 99999999 bytes exceeds the limit");
        }
        now.set(now.get().plus(Duration.ofSeconds(60)));
        quiet.warn("10.1.2.3", "malformed request", "malformed length prefix");
        assertThat(lines.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "malformed request from 10.1.2.3: frame of 99999999 bytes exceeds the limit",
                        "malformed request from 10.1.2.3: malformed length prefix (999 more suppressed)");
        assertThat(lines.list).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
    }

    @Test
    void peersAndKindsAreCountedApart() {
        quiet.warn("10.1.2.3", "malformed request", "x");
        quiet.warn("10.1.2.4", "malformed request", "x");
        quiet.warn("10.1.2.3", "refused REQUEST_PING", "no credential");
        quiet.warn(null, "connection dropped", "HTTP/2 client preface string missing or corrupt");
        assertThat(lines.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "malformed request from 10.1.2.3: x",
                        "malformed request from 10.1.2.4: x",
                        "refused REQUEST_PING from 10.1.2.3: no credential",
                        "connection dropped: HTTP/2 client preface string missing or corrupt");
    }

    @Test
    void whatAPeerWroteCannotForgeLinesOrFillTheLog() {
        quiet.warn("10.1.2.3", "refused", "bad\nuser\r\n[2026-12-02T04:00:00.000] forged" + "x".repeat(500));
        String line = lines.list.get(0).getFormattedMessage();
        assertThat(line).doesNotContain("\n", "\r").startsWith("refused from 10.1.2.3: bad?user??[2026");
        assertThat(line).endsWith("...").hasSizeLessThan(QuietLog.MAX_DETAIL + 40);
    }

    @Test
    void aPeerIsItsHostWithoutThePortEachConnectionHas() throws Exception {
        assertThat(QuietLog.host(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 40532)))
                .isEqualTo("127.0.0.1");
        assertThat(QuietLog.host(null)).isNull();
    }

    @Test
    void grpcTransportFailuresBecomeOneQuietLineWithoutTheirStackTrace() {
        var filter = DaemonLogging.transportFailures(quiet);
        LogRecord failed = new LogRecord(java.util.logging.Level.INFO, "Transport failed");
        failed.setThrown(new IllegalStateException(
                "HTTP/2 client preface string missing or corrupt. Hex dump for received bytes: 05616263"));
        for (int i = 0; i < 50; i++) {
            assertThat(filter.isLoggable(failed)).isFalse();
        }
        assertThat(filter.isLoggable(new LogRecord(java.util.logging.Level.INFO, "Transport ready")))
                .isTrue();
        assertThat(lines.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("connection dropped on a gRPC port: HTTP/2 client preface string missing or"
                        + " corrupt. Hex dump for received bytes: 05616263");
    }
}
