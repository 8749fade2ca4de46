package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The names `scontrol show node LIST` looks up; expected values are what Slurm 22.05 printed
 * as {@code Node NAME not found} for each list (/work/shared/tools/real-slurm, 2026-12-04).
 */
class TestNodeNames {
    @Test
    void listsExpandInOrderKeepingRepeats() {
        assertThat(NodeNames.of("n[8-9]")).containsExactly("n8", "n9");
        assertThat(NodeNames.of("n9,n1")).containsExactly("n9", "n1");
        assertThat(NodeNames.of("n[1,9]")).containsExactly("n1", "n9");
        assertThat(NodeNames.of("n9,n9")).containsExactly("n9", "n9");
    }

    @Test
    void anUnclosedBracketEndsTheNameWithABracket() {
        assertThat(NodeNames.of("bogus[")).containsExactly("bogus]");
        assertThat(NodeNames.of("bogus[1")).containsExactly("bogus]");
        assertThat(NodeNames.of("bo[gus")).containsExactly("bo]");
        assertThat(NodeNames.of("n[1-2")).containsExactly("n]");
        assertThat(NodeNames.of("n[1-2]x[")).containsExactly("n[1-2]x]");
        assertThat(NodeNames.of("a]b[")).containsExactly("a]b]");
    }

    @Test
    void withNothingBeforeTheBracketTheNameIsWhatFollows() {
        assertThat(NodeNames.of("[")).containsExactly("");
        assertThat(NodeNames.of("[1")).containsExactly("1");
        assertThat(NodeNames.of("[abc")).containsExactly("abc");
    }

    @Test
    void commasAfterAnUnclosedBracketStillSeparate() {
        assertThat(NodeNames.of("n1,bogus[,n2")).containsExactly("n1", "bogus]", "n2");
        assertThat(NodeNames.of("x[1-2],y[")).containsExactly("x1", "x2", "y]");
    }

    @Test
    void aBadRangeIsNoList() {
        // Slurm: "unable to parse node list n[2-1]".
        assertThatThrownBy(() -> NodeNames.of("n[2-1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NodeNames.of("n[a-b]")).isInstanceOf(IllegalArgumentException.class);
    }
}
