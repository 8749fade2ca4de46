package dev.sluice.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TestDaemonLineAppender {
    @Test
    void aLineLoggedOnAVirtualThreadIsWrittenWholeWithItsException() throws Exception {
        LoggerContext context = new LoggerContext();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%level %logger{0}: %msg%n");
        encoder.start();
        DaemonLineAppender appender = new DaemonLineAppender();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        appender.setOutputStream(out);

        LoggingEvent event = new LoggingEvent(
                "x",
                context.getLogger("dev.sluice.noded.Launcher"),
                Level.WARN,
                "job {} refused",
                new IllegalStateException("no room"),
                new Object[] {42});
        event.setInstant(Instant.parse("2026-12-02T03:58:34.994Z"));
        Thread.ofVirtual().start(() -> appender.doAppend(event)).join();

        String written = out.toString(StandardCharsets.UTF_8);
        assertThat(written).startsWith("WARN Launcher: job 42 refused\njava.lang.IllegalStateException: no room\n");
        assertThat(written).contains("\tat ");
        assertThat(appender.isStarted()).isTrue();
        ILoggingEvent copy = event;
        assertThat(copy.getFormattedMessage()).isEqualTo("job 42 refused");
    }
}
