package dev.sluice.ctld.loop;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How a caller outside the loop (a request handler, the server) waits for the loop's decision. */
public final class LoopAnswers {
    private static final long WRITE_TIMEOUT_SECONDS = 60;

    private LoopAnswers() {}

    /** Waits for the loop's answer to a command; its refusal is rethrown as is. */
    public static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SlurmException se) {
                throw se;
            }
            throw new SlurmException(ErrorCode.UNEXPECTED, String.valueOf(e.getCause()));
        } catch (TimeoutException e) {
            throw new SlurmException(ErrorCode.UNEXPECTED, "controller did not answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(ErrorCode.UNEXPECTED, "interrupted");
        }
    }
}
