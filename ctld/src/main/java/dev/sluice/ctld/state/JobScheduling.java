package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * Where and on what terms a job is queued: {@code --partition} (empty: the default one),
 * {@code --time} in minutes ({@link JobRequest#TIME_NOT_SET}, {@link JobRequest#TIME_INFINITE}),
 * {@code --signal} before that limit, {@code --hold}, {@code --requeue} and {@code --nice}.
 */
public record JobScheduling(
        String partition,
        long timeLimitMinutes,
        JobRequest.WarnSignal warnSignal,
        boolean hold,
        boolean requeue,
        int nice) {
    public JobScheduling {
        requireNonNull(warnSignal, "warnSignal is null");
    }
}
