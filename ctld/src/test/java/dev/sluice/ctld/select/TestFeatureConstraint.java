package dev.sluice.ctld.select;

import static dev.sluice.ctld.PlacementBuilders.aNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.state.FeatureConstraint;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code --constraint} as sbatch(1) describes AND ({@code &}) and OR ({@code |}). */
class TestFeatureConstraint {
    @Test
    void andOrAndCommas() {
        assertThat(FeatureConstraint.parse("a100&ib").matches(List.of("a100", "ib", "x")))
                .isTrue();
        assertThat(FeatureConstraint.parse("a100&ib").matches(List.of("a100"))).isFalse();
        assertThat(FeatureConstraint.parse("a100|h100").matches(List.of("h100")))
                .isTrue();
        assertThat(FeatureConstraint.parse("a100,ib").matches(List.of("ib"))).isFalse();
        assertThat(FeatureConstraint.parse("a100&ib|h100").matches(List.of("h100")))
                .isTrue();
        assertThat(FeatureConstraint.NONE.matches(List.of())).isTrue();
    }

    @Test
    void unsupportedSyntaxIsRefused() {
        assertThatThrownBy(() -> FeatureConstraint.parse("[rack1|rack2]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FeatureConstraint.parse("a100&")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void placementHonoursTheConstraint() {
        List<NodeCapacity> nodes = List.of(
                aNode("n1").features("v100").build(),
                aNode("n2").features("a100", "ib").build());
        PlacementRequest wantsA100 = new PlacementRequest(
                new PlacementRequest.Shape(1, 1, 1, 1, 0),
                PlacementRequest.MemoryAsk.NONE,
                new PlacementRequest.NodeChoice(false, Set.of(), Set.of(), FeatureConstraint.parse("a100&ib")),
                GresDemand.NONE,
                false);
        assertThat(((PlacementResult.Placed) Allocator.place(nodes, wantsA100))
                        .allocation()
                        .nodeNames())
                .containsExactly("n2");
        PlacementRequest two = new PlacementRequest(
                new PlacementRequest.Shape(2, 2, 2, 1, 0),
                PlacementRequest.MemoryAsk.NONE,
                new PlacementRequest.NodeChoice(false, Set.of(), Set.of(), FeatureConstraint.parse("a100")),
                GresDemand.NONE,
                false);
        assertThat(Allocator.place(nodes, two))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }
}
