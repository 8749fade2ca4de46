package dev.sluice.ctld.control;

import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;

/**
 * What a handler decided (Kafka's ControllerResult): durable records to journal and replay,
 * soft-state changes that are never journaled, effects to carry out once the records are on
 * disk, and the answer for the caller. Handlers build these and mutate nothing.
 */
public record ControlResult<T>(
        List<StateRecord> records, List<SoftChange> softChanges, List<Effect> effects, T response) {
    public ControlResult {
        records = List.copyOf(records);
        softChanges = List.copyOf(softChanges);
        effects = List.copyOf(effects);
    }

    public static <T> ControlResult<T> of(List<StateRecord> records, List<Effect> effects, T response) {
        return new ControlResult<>(records, List.of(), effects, response);
    }

    public static <T> ControlResult<T> answer(T response) {
        return new ControlResult<>(List.of(), List.of(), List.of(), response);
    }
}
