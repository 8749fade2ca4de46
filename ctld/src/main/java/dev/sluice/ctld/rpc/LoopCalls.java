package dev.sluice.ctld.rpc;

import dev.sluice.common.error.SlurmException;
import dev.sluice.protocol.v1.SlurmError;

/**
 * How the request handlers put the loop's refusal on the wire (they wait for its decision with
 * {@link dev.sluice.ctld.loop.LoopAnswers#await}).
 */
public final class LoopCalls {
    private LoopCalls() {}

    static SlurmError error(SlurmException e) {
        return SlurmError.newBuilder()
                .setCode(e.code().number())
                .setMessage(e.getMessage())
                .setUserMessage(e.userMessage())
                .build();
    }
}
