package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.HourlyUsage;
import dev.sluice.dbd.store.UsageRollup;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the usage rollup at start-up (catching up on hours missed while the daemon was down) and
 * then just after every hour boundary of {@code clock}. A failed run (database down) is retried
 * a minute later.
 */
final class RollupScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RollupScheduler.class);
    /** Seconds after the hour, so records of jobs ending right at it have arrived. */
    private static final long SETTLE_SECONDS = 30;

    private static final long RETRY_SECONDS = 60;

    private final UsageRollup rollup;
    private final InstantSource clock;
    private final ScheduledExecutorService timer;
    private final Statistics stats;

    RollupScheduler(UsageRollup rollup, InstantSource clock, Statistics stats) {
        this.rollup = requireNonNull(rollup, "rollup is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dbd-rollup");
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        timer.execute(this::run);
    }

    private void run() {
        long delay;
        try {
            long started = System.nanoTime();
            rollup.rollUp();
            stats.rolledUp((System.nanoTime() - started) / 1000);
            long now = clock.instant().getEpochSecond();
            delay = HourlyUsage.floorHour(now) + HourlyUsage.HOUR + SETTLE_SECONDS - now;
        } catch (SQLException | RuntimeException e) {
            log.warn("usage rollup failed, retrying in {} s: {}", RETRY_SECONDS, e.toString());
            delay = RETRY_SECONDS;
        }
        if (!timer.isShutdown()) {
            timer.schedule(this::run, Math.max(1, delay), TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
