package dev.sluice.bench.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark scripts' command lines: what they take, and the lines they refuse with. */
class TestBenchArgs {
    private static List<String> walk(String... args) {
        BenchArgs a = new BenchArgs(args, Set.of("--keep"), Set.of("--jobs", "--jfr"));
        List<String> seen = new ArrayList<>();
        while (a.next()) {
            switch (a.option()) {
                case "--keep" -> seen.add("keep");
                case "--jobs" -> seen.add("jobs=" + a.count(1));
                case "--jfr" -> seen.add("jfr=" + a.path());
            }
        }
        return seen;
    }

    @Test
    void givesFlagsAndValuesInTheOrderGiven() {
        assertThat(walk("--jobs", "5", "--keep", "--jfr", "/tmp/x.jfr", "--jobs", "7"))
                .containsExactly("jobs=5", "keep", "jfr=/tmp/x.jfr", "jobs=7");
    }

    @Test
    void refusesAnUnknownOptionAndAMissingValue() {
        assertThatThrownBy(() -> walk("--keep", "--bogus", "3")).hasMessage("unknown option --bogus");
        assertThatThrownBy(() -> walk("--jobs")).hasMessage("--jobs needs a value");
    }

    @Test
    void refusesACountThatIsNoNumberOrTooSmall() {
        assertThatThrownBy(() -> walk("--jobs", "many")).hasMessage("--jobs wants a number, not many");
        assertThatThrownBy(() -> walk("--jobs", "0")).hasMessage("--jobs must be at least 1");
    }
}
