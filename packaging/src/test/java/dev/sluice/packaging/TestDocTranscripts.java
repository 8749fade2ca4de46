package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How {@link TestDocExamples} reads a page's transcripts and what it leaves out of a comparison. */
class TestDocTranscripts {
    private static final String PAGE = """
            Text.

                $ ./sluice up --nodes 1 --conf Licenses=foo:4
                $ source .sluice/sluice.env
                $ cat >> "$SLURM_CONF" <<'END'
                PartitionName=low Nodes=ALL
                END
                $ scontrol show res x

                   MaxStartDelay=(null)

                $ true

            More text.

            <!-- example: numbers vary in (?<=count:  )\\d+ -->

                $ sdiag | head -n 1
                Server thread count:  1

            ```
                $ not a transcript
            ```

                not a transcript either
            """;

    @Test
    void aBlockRunsFromItsFirstCommandToItsLastIndentedLineBlankLinesWithin() {
        List<DocTranscripts.Block> blocks = DocTranscripts.parse(PAGE, "p.md");
        assertThat(blocks).hasSize(2);
        DocTranscripts.Block first = blocks.getFirst();
        assertThat(first.where()).isEqualTo("p.md:3");
        assertThat(first.newCluster()).contains(List.of("--nodes", "1", "--conf", "Licenses=foo:4"));
        assertThat(first.steps())
                .extracting(DocTranscripts.Step::command)
                .containsExactly(
                        "./sluice up --nodes 1 --conf Licenses=foo:4",
                        "source .sluice/sluice.env",
                        "cat >> \"$SLURM_CONF\" <<'END'\nPartitionName=low Nodes=ALL\nEND",
                        "scontrol show res x",
                        "true");
        assertThat(first.steps().get(3).expected()).containsExactly("", "   MaxStartDelay=(null)", "");
        assertThat(first.steps().get(1).setsUpShell()).isTrue();
    }

    @Test
    void aBlockWithoutSluiceUpOrSourceGoesOnInTheClusterBefore() {
        DocTranscripts.Block second = DocTranscripts.parse(PAGE, "p.md").get(1);
        assertThat(second.newCluster()).isEmpty();
        assertThat(second.varying()).map(Pattern::pattern).contains("(?<=count:  )\\d+");
    }

    @Test
    void aSourceLineAloneStartsTheDefaultCluster() {
        List<DocTranscripts.Block> blocks = DocTranscripts.parse("\n    $ source .sluice/sluice.env\n", "p.md");
        assertThat(blocks.getFirst().newCluster()).contains(List.of());
    }

    @Test
    void datesAndTrailingBlanksAreNotComparedEverythingElseIs() {
        assertThat(DocOutput.normalised(
                        List.of(
                                "maint  2026-12-05T00:27:53  01:00:00 ",
                                "at Sat Dec 05 09:31:12 2026 (1796463072)",
                                ""),
                        Optional.empty()))
                .containsExactly("maint  YYYY-MM-DDThh:mm:ss  01:00:00", "at DAY MON DD hh:mm:ss YYYY");
        assertThat(DocOutput.normalised(List.of("Jobs started:   1"), Optional.empty()))
                .isNotEqualTo(DocOutput.normalised(List.of("Jobs started:   2"), Optional.empty()));
    }

    @Test
    void numbersTheBlockSaysVaryAreComparedOnlyWhereItSays() {
        Optional<Pattern> varying = Optional.of(Pattern.compile(" +\\d+K +\\d\\d:\\d\\d:\\d\\d$"));
        assertThat(DocOutput.normalised(List.of("1.0      4     node1      1660K   00:00:00"), varying))
                .isEqualTo(DocOutput.normalised(List.of("1.0      4     node1     10660K   00:00:01"), varying))
                .isNotEqualTo(DocOutput.normalised(List.of("1.0      3     node1      1660K   00:00:00"), varying));
    }
}
