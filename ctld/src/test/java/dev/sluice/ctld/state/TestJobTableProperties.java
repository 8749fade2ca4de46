package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The chunked job table behaves as a map sorted by id, and an image once taken never changes,
 * whatever is put or removed afterwards (readers hold images while the loop goes on). Its index
 * of running jobs lists, in every image, exactly the image's jobs that hold resources, and its
 * table of pending jobs exactly the pending ones.
 */
class TestJobTableProperties {
    private static final Job TEMPLATE = Job.submitted(1, Builders.aJob().build(), "p", 10, 0);
    private static final JobState[] STATES = {
        JobState.PENDING, JobState.RUNNING, JobState.SUSPENDED, JobState.COMPLETED, JobState.CANCELLED
    };

    /** An operation: put (a job with that id, in a new version) or remove. */
    record Op(boolean put, int id, int version) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        // Ids across a few chunks, dense enough that chunks fill up and empty again.
        Arbitrary<Integer> ids = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 3 * JobTable.CHUNK),
                Arbitraries.integers().between(1_000_000, 1_000_040));
        Arbitrary<Op> op = net.jqwik.api.Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        ids,
                        Arbitraries.integers().between(0, 9))
                .as((kind, id, version) -> new Op(kind > 0, id, version));
        return op.list().ofMaxSize(400);
    }

    @Property(tries = 200)
    void matchesASortedMapAndImagesNeverChange(@ForAll("ops") List<Op> ops) {
        JobTable table = new JobTable();
        TreeMap<Integer, Job> model = new TreeMap<>();
        List<JobTable.Frozen> images = new ArrayList<>();
        List<List<Job>> expected = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.put()) {
                Job job = TEMPLATE.with(
                        b -> b.id(op.id()).exitStatus(op.version()).state(STATES[op.version() % STATES.length]));
                table.put(job);
                model.put(op.id(), job);
            } else {
                table.remove(op.id());
                model.remove(op.id());
            }
            assertThat(table.get(op.id())).isSameAs(model.get(op.id()));
            if (i % 7 == 0) {
                images.add(table.freeze());
                expected.add(List.copyOf(model.values()));
            }
        }
        JobTable.Frozen last = table.freeze();
        assertThat(table.size()).isEqualTo(model.size());
        assertThat(last).containsExactlyElementsOf(model.values());
        for (int i = 0; i < last.size(); i++) {
            assertThat(last.get(i)).isSameAs(new ArrayList<>(model.values()).get(i));
        }
        Map<Integer, Job> byId = last.byId();
        assertThat(byId).hasSize(model.size());
        for (Op op : ops) {
            assertThat(byId.get(op.id())).isSameAs(model.get(op.id()));
        }
        assertThat(Map.copyOf(byId)).isEqualTo(model);
        for (int i = 0; i < images.size(); i++) {
            assertThat(images.get(i)).containsExactlyElementsOf(expected.get(i));
            assertThat(JobTable.Frozen.running(images.get(i)))
                    .containsExactlyElementsOf(
                            expected.get(i).stream().filter(Job::isRunning).toList());
            assertThat(JobTable.Frozen.pending(images.get(i)))
                    .containsExactlyElementsOf(
                            expected.get(i).stream().filter(Job::isPending).toList());
        }
        assertThat(JobTable.Frozen.running(last))
                .containsExactlyElementsOf(
                        model.values().stream().filter(Job::isRunning).toList());
        assertThat(JobTable.Frozen.pending(last))
                .containsExactlyElementsOf(
                        model.values().stream().filter(Job::isPending).toList());
    }

    @Property(tries = 50)
    void anUnchangedTableFreezesToTheSameImage(@ForAll("ops") List<Op> ops) {
        JobTable table = new JobTable();
        for (Op op : ops) {
            table.put(TEMPLATE.with(b -> b.id(op.id())));
        }
        assertThat(table.freeze()).isSameAs(table.freeze());
    }
}
