package dev.sluice.dbd.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dbd.model.RpcStatistics.Key;
import dev.sluice.dbd.model.RpcStatistics.Tally;
import java.util.List;
import org.junit.jupiter.api.Test;

class RpcStatisticsTest {
    private static final Key QOS = new Key("DBD_GET_QOS", 1448);
    private static final Key USERS = new Key("DBD_GET_USERS", 1415);
    private static final Key ROOT = new Key("root", 0);
    private static final Key ALICE = new Key("alice", 1000);

    @Test
    void tallies_keep_the_order_each_was_first_counted_and_sum_times() {
        RpcStatistics s = RpcStatistics.since(100)
                .count(USERS, ALICE, 30)
                .count(QOS, ROOT, 10)
                .count(QOS, ALICE, 25);
        assertThat(List.copyOf(s.byType().keySet())).containsExactly(USERS, QOS);
        assertThat(s.byType().get(QOS)).isEqualTo(new Tally(2, 35));
        assertThat(s.byType().get(QOS).averageMicros()).isEqualTo(17);
        assertThat(List.copyOf(s.byUser().keySet())).containsExactly(ALICE, ROOT);
        assertThat(s.byUser().get(ALICE)).isEqualTo(new Tally(2, 55));
        assertThat(s.since()).isEqualTo(100);
    }

    @Test
    void a_count_leaves_the_value_it_came_from_unchanged() {
        RpcStatistics before = RpcStatistics.since(100);
        before.count(QOS, ROOT, 10);
        assertThat(before.byType()).isEmpty();
        assertThat(before.byUser()).isEmpty();
    }

    @Test
    void rollups_add_cycles_keeping_the_longest() {
        RpcStatistics s = RpcStatistics.since(100);
        assertThat(s.rollup().ran()).isFalse();
        s = s.rolledUp(200, 900).rolledUp(3800, 300);
        assertThat(s.rollup()).isEqualTo(new RpcStatistics.Rollup(3800, 300, 900, 1200, 2));
        assertThat(s.rollup().meanCycle()).isEqualTo(600);
    }
}
