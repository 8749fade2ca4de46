package dev.sluice.common.hostlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TestIndexRanges {
    @Test
    void formatsAscendingRunsOnce() {
        assertThat(IndexRanges.format(List.of(3, 0, 1, 2, 8, 10, 9))).isEqualTo("0-3,8-10");
        assertThat(IndexRanges.format(List.of(5))).isEqualTo("5");
        assertThat(IndexRanges.format(List.of(7, 1, 0, 9, 8, 1))).isEqualTo("0-1,7-9");
        assertThat(IndexRanges.format(List.of())).isEmpty();
    }

    @Test
    void parsesWhatItFormats() {
        assertThat(IndexRanges.parse("0-2,7")).containsExactly(0, 1, 2, 7);
        assertThat(IndexRanges.parse(" ")).isEmpty();
        assertThat(IndexRanges.parse("4")).containsExactly(4);
    }

    @Test
    void refusesWhatIsNotARange() {
        for (String bad : List.of("a", "3-1", "-1", "1,,2", "0-2000000000", "1-")) {
            assertThatThrownBy(() -> IndexRanges.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Property
    void roundTrips(@ForAll @Size(max = 40) Set<@IntRange(max = 200) Integer> indices) {
        assertThat(IndexRanges.parse(IndexRanges.format(indices)))
                .containsExactlyElementsOf(indices.stream().sorted().toList());
    }
}
