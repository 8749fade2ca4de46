package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.hostlist.HostList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A node list a job names ({@code -w}/{@code --nodelist}, {@code -x}/{@code --exclude}): the
 * text as typed, which Slurm echoes ({@code ReqNodeList=}), and its names expanded once, in
 * their order, for the scheduler to test each pass.
 */
public record NodeNames(String text, Set<String> names) {
    public static final NodeNames NONE = new NodeNames("", Set.of());

    public NodeNames {
        requireNonNull(text, "text is null");
        names = Collections.unmodifiableSet(new LinkedHashSet<>(names));
    }

    /** @throws IllegalArgumentException when the text is not a host list */
    public static NodeNames parse(String text) {
        if (text == null || text.isBlank()) {
            return text == null || text.isEmpty() ? NONE : new NodeNames(text, Set.of());
        }
        return new NodeNames(text, new LinkedHashSet<>(HostList.expand(text)));
    }

    public boolean isEmpty() {
        return names.isEmpty();
    }
}
