package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.List;

/**
 * What one job event decides (Aurora's TransitionResult): records to journal and replay, and
 * effects to carry out once they are durable.
 */
public record Transition(List<StateRecord> records, List<Effect> effects) {
    public static final Transition NONE = new Transition(List.of(), List.of());

    public Transition {
        records = List.copyOf(records);
        effects = List.copyOf(effects);
    }

    static Transition of(StateRecord record) {
        return new Transition(List.of(record), List.of());
    }

    static Transition of(StateRecord record, Effect effect) {
        return new Transition(List.of(record), List.of(effect));
    }

    /** This, then {@code next}. */
    public Transition then(Transition next) {
        List<StateRecord> r = new ArrayList<>(records);
        r.addAll(next.records);
        List<Effect> e = new ArrayList<>(effects);
        e.addAll(next.effects);
        return new Transition(r, e);
    }
}
