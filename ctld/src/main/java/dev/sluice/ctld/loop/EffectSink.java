package dev.sluice.ctld.loop;

import dev.sluice.ctld.control.Effect;
import dev.sluice.ctld.state.ClusterImage;

/** Carries out effects once their records are durable. Must not block the controller thread. */
@FunctionalInterface
public interface EffectSink {
    void execute(Effect effect, ClusterImage image);
}
