package dev.sluice.common.log;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.status.ErrorStatus;
import java.io.IOException;

/**
 * The daemons' appender: logback's console appender, less the copy it makes of each event for a
 * later, deferred writer. That copy reads the thread's name, which for a virtual thread logback
 * finds through reflection on every line (a tenth of a node daemon's logging cost under a stream
 * of jobs, for a name the daemons' line format never prints). This appender writes the line at
 * once, on the logging thread, so nothing is read later.
 */
public final class DaemonLineAppender extends ConsoleAppender<ILoggingEvent> {
    @Override
    protected void subAppend(ILoggingEvent event) {
        if (!isStarted()) {
            return;
        }
        try {
            writeOut(event);
        } catch (IOException e) {
            // As the console appender does: a broken standard error stops this appender.
            started = false;
            addStatus(new ErrorStatus("IO failure in appender", this, e));
        }
    }
}
