package dev.sluice.ctld.loop;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Effect;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Carries out effects once their records are durable. Must not block the controller thread. */
@FunctionalInterface
public interface EffectSink {
    void execute(Effect effect, ClusterImage image);

    /**
     * A batch's effects, in order. A sink may carry several together (one call to a node for
     * the launches it gets) as long as each node sees its effects in this order; one effect
     * that fails must not keep the others from being carried out.
     */
    default void executeAll(List<Effect> effects, ClusterImage image) {
        for (Effect effect : effects) {
            carryOut(effect, () -> execute(effect, image));
        }
    }

    /**
     * Runs {@code action}, which carries out {@code effect} (or ends with it): a failure is
     * logged, never thrown, so that the batch's other effects are still carried out.
     */
    static void carryOut(Effect effect, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(EffectSink.class).warn("effect {} failed", effect, e);
        }
    }
}
