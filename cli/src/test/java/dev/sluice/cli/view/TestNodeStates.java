package dev.sluice.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.NodeInfo;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Node state names. Rows marked "observed" were printed by Slurm 22.05's sinfo and scontrol
 * (see the golden tests); the others follow sinfo(1) "NODE STATE CODES".
 */
class TestNodeStates {
    private static NodeInfo node(String base, String flags) {
        return NodeInfo.newBuilder()
                .setState(base)
                .addAllFlags(flags.isEmpty() ? List.of() : List.of(flags.split("\\+")))
                .build();
    }

    @ParameterizedTest(name = "{0}+{1} -> {2} / {3} / {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                // base | flags | sinfo %t | sinfo %T | scontrol State=
                "IDLE      |                      | idle   | idle       | IDLE", // observed
                "MIXED     |                      | mix    | mixed      | MIXED", // observed
                "ALLOCATED |                      | alloc  | allocated  | ALLOCATED", // observed
                "IDLE      | DRAIN                | drain  | drained    | IDLE+DRAIN", // observed
                "MIXED     | DRAIN                | drng   | draining   | MIXED+DRAIN", // observed
                "IDLE      | NOT_RESPONDING       | idle*  | idle*      | IDLE+NOT_RESPONDING", // observed
                "MIXED     | NOT_RESPONDING       | mix*   | mixed*     | MIXED+NOT_RESPONDING", // observed
                "DOWN      | NOT_RESPONDING       | down*  | down*      | DOWN+NOT_RESPONDING", // observed
                "DOWN      | DRAIN+NOT_RESPONDING | drain* | drained*   | DOWN+DRAIN+NOT_RESPONDING", // observed
                "IDLE      | PLANNED              | idle-  | idle-      | IDLE+PLANNED", // observed (scontrol)
                "ALLOCATED | COMPLETING           | comp   | completing | ALLOCATED+COMPLETING",
                "IDLE      | FAIL                 | fail   | fail       | IDLE+FAIL",
                "ALLOCATED | FAIL                 | failg  | failing    | ALLOCATED+FAIL",
                "FUTURE    |                      | futr   | future     | FUTURE",
                "IDLE      | POWERED_DOWN         | idle~  | idle~      | IDLE+POWERED_DOWN",
                "UNKNOWN   |                      | unk    | unknown    | UNKNOWN",
            })
    void names(String base, String flags, String compact, String longName, String scontrol) {
        NodeInfo n = node(base, flags == null ? "" : flags);
        assertThat(NodeStates.compactName(n)).isEqualTo(compact);
        assertThat(NodeStates.longName(n)).isEqualTo(longName);
        assertThat(NodeStates.scontrolName(n)).isEqualTo(scontrol);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // observed in sinfo's NODES(A/I/O/T): a draining node is A, a drained one O
                "MIXED     | DRAIN          | A",
                "IDLE      | DRAIN          | O",
                "ALLOCATED |                | A",
                "IDLE      |                | I",
                "DOWN      | NOT_RESPONDING | O",
            })
    void aiotBuckets(String base, String flags, String bucket) {
        NodeInfo n = node(base, flags == null ? "" : flags);
        String actual = NodeStates.countsAllocated(n) ? "A" : NodeStates.unavailable(n) ? "O" : "I";
        assertThat(actual).isEqualTo(bucket);
    }
}
