package dev.sluice.ctld.rpc;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.protocol.v1.SlurmError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How the request handlers wait for the loop's decision, and put its refusal on the wire. */
public final class LoopCalls {
    private static final long WRITE_TIMEOUT_SECONDS = 60;

    private LoopCalls() {}

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

    static SlurmError error(SlurmException e) {
        return SlurmError.newBuilder()
                .setCode(e.code().number())
                .setMessage(e.getMessage())
                .setUserMessage(e.userMessage())
                .build();
    }
}
