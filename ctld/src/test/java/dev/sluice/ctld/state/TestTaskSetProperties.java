package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * A task set after any tasks leave it, first or not (it shares its bits while the first leaves),
 * is the set of the ids that are left: the same size, ends, members, order, Slurm form, equality
 * and hash as a set made from those ids afresh.
 */
class TestTaskSetProperties {
    @Property(tries = 300)
    void tasksThatLeaveAreGoneAndNothingElseIs(
            @ForAll @Size(max = 40) List<@IntRange(max = 70) Integer> ids,
            @ForAll @Size(max = 60) List<@IntRange(max = 80) Integer> leaving,
            @ForAll @Size(max = 10) List<@IntRange(max = 80) Integer> joining) {
        TaskSet set = TaskSet.of(ids);
        TreeSet<Integer> left = new TreeSet<>(ids);
        for (int i = 0; i < leaving.size(); i++) {
            // Every other step the first task starts, as an array's tasks mostly do.
            int id = i % 2 == 0 && !left.isEmpty() ? left.first() : leaving.get(i);
            set = set.without(id);
            left.remove(id);
            sameAs(set, left);
        }
        TaskSet more = set.union(TaskSet.of(joining));
        left.addAll(joining);
        sameAs(more, left);
    }

    @Test
    void aSetSharingItsBitsIsNotChangedByTheSetsMadeFromIt() {
        TaskSet all = TaskSet.parse("0-9", 100);
        TaskSet rest = all.without(0).without(1);
        TaskSet gap = rest.without(5);
        assertThat(all.format()).isEqualTo("0-9");
        assertThat(rest.format()).isEqualTo("2-9");
        assertThat(gap.format()).isEqualTo("2-4,6-9");
        assertThat(rest.union(TaskSet.of(List.of(0))).format()).isEqualTo("0,2-9");
        assertThat(rest.without(42)).isSameAs(rest);
    }

    private static void sameAs(TaskSet set, TreeSet<Integer> ids) {
        TaskSet fresh = TaskSet.of(new ArrayList<>(ids));
        assertThat(set.size()).isEqualTo(ids.size());
        assertThat(set.isEmpty()).isEqualTo(ids.isEmpty());
        assertThat(set.first()).isEqualTo(ids.isEmpty() ? -1 : ids.first());
        assertThat(set.last()).isEqualTo(ids.isEmpty() ? -1 : ids.last());
        assertThat(set.ids()).containsExactlyElementsOf(ids);
        for (int id = -1; id <= 81; id++) {
            assertThat(set.contains(id)).isEqualTo(ids.contains(id));
        }
        assertThat(set.format()).isEqualTo(fresh.format());
        assertThat(set).isEqualTo(fresh);
        assertThat(fresh).isEqualTo(set);
        assertThat(set.hashCode()).isEqualTo(fresh.hashCode());
    }
}
