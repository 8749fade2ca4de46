package dev.sluice.cli.command.sinfo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.NodeInfo;
import org.junit.jupiter.api.Test;

/** sinfo -t as real Slurm 22.05 applies it (compat scenario 056 records it). */
class TestNodeFilter {
    private static NodeInfo node(String base) {
        return NodeInfo.newBuilder().setName("n").setState(base).build();
    }

    @Test
    void allocListsMixedNodesTooButIdleDoesNot() {
        var alloc = NodeFilter.state("alloc").orElseThrow();
        assertThat(alloc.test(node("ALLOCATED"))).isTrue();
        assertThat(alloc.test(node("MIXED"))).isTrue();
        assertThat(alloc.test(node("IDLE"))).isFalse();
        assertThat(NodeFilter.state("idle").orElseThrow().test(node("MIXED"))).isFalse();
        assertThat(NodeFilter.state("mix").orElseThrow().test(node("ALLOCATED")))
                .isFalse();
    }
}
