package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.protocol.v1.NodeInfo;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** `scontrol -d show node`: Slurm 22.05 adds GresDrain and GresUsed right after Gres (compat 059). */
class TestNodeShowDetails {
    @Test
    void detailsFollowGres() {
        NodeInfo n1 = Fixtures.nodes().get(0).toBuilder()
                .setGresUsed("gpu:2,mps:0,shard:(null):0(IDX:N/A)")
                .build();
        List<String> plain = NodeShow.lines(n1, ZoneOffset.UTC);
        List<String> detailed = NodeShow.lines(n1, ZoneOffset.UTC, true);
        int gres = detailed.indexOf("Gres=gpu:3,mps:300,shard:12");
        assertThat(detailed.subList(gres + 1, gres + 3))
                .containsExactly("GresDrain=N/A", "GresUsed=gpu:2,mps:0,shard:(null):0(IDX:N/A)");
        assertThat(plain).noneMatch(l -> l.startsWith("GresUsed=") || l.startsWith("GresDrain="));
        assertThat(detailed).hasSize(plain.size() + 2);
    }
}
