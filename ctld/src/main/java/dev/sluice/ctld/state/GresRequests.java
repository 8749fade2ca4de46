package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.gres.GresRequest;
import java.util.List;

/**
 * A job's {@code --gres} (per node): the text as typed, which Slurm echoes, and its items parsed
 * once by Slurm's rules ({@link GresRequest#parseList}). Whether each name is configured depends
 * on the cluster, so that is checked at submission, not here.
 */
public record GresRequests(String text, List<GresRequest> items) {
    public static final GresRequests NONE = new GresRequests("", List.of());

    public GresRequests {
        requireNonNull(text, "text is null");
        items = List.copyOf(items);
    }

    /** @throws IllegalArgumentException with Slurm's message for text that does not parse */
    public static GresRequests parse(String text) {
        if (text == null || text.isEmpty()) {
            return NONE;
        }
        return new GresRequests(text, GresRequest.parseList(text));
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }
}
