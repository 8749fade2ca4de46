package dev.sluice.common.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Closing a blocking server closes its listener, then every connection still open. */
class TestOpenConnections {
    private final List<String> closed = new ArrayList<>();

    private Closeable socket(String name, boolean fails) {
        return () -> {
            closed.add(name);
            if (fails) {
                throw new IOException(name + " already reset");
            }
        };
    }

    @Test
    void theListenerClosesFirstThenEachConnectionStillOpen() {
        OpenConnections<Closeable> open = new OpenConnections<>();
        Closeable a = socket("a", true);
        Closeable b = socket("b", false);
        Closeable done = socket("done", false);
        open.add(a);
        open.add(b);
        open.add(done);
        open.remove(done);
        open.closeAll(socket("listener", true));
        assertThat(closed.getFirst()).isEqualTo("listener");
        assertThat(closed).containsExactlyInAnyOrder("listener", "a", "b");
    }

    @Test
    void aServerThatNeverStartedHasNothingToClose() {
        OpenConnections<Closeable> open = new OpenConnections<>();
        open.closeAll(null);
        assertThat(closed).isEmpty();
    }
}
