package dev.sluice.ctld.loop;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Effect;

/** Carries out effects once their records are durable. Must not block the controller thread. */
@FunctionalInterface
public interface EffectSink {
    void execute(Effect effect, ClusterImage image);
}
