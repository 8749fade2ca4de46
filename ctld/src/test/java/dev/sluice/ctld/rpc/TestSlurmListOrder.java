package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.state.ArrayPart;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.TaskSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order slurmctld lists jobs in, which squeue keeps between ties. */
class TestSlurmListOrder {
    private static Job plain(int id) {
        return Job.submitted(id, aJob().build(), "p", 10, 100);
    }

    /** Array 10: tasks 0 and 1 split off as 11 and 13 (a plain job 12 between), 2-5 pending. */
    private static List<Job> jobs() {
        return List.of(
                Job.submitted(10, aJob().build(), "p", 10, 100, new ArrayPart(10, -1, TaskSet.parse("2-5", 100), 2)),
                Job.submitted(11, aJob().build(), "p", 10, 100, new ArrayPart(10, 0, TaskSet.EMPTY, 2)),
                plain(12),
                Job.submitted(13, aJob().build(), "p", 10, 100, new ArrayPart(10, 1, TaskSet.EMPTY, 2)),
                plain(14));
    }

    @Test
    void eachSplitTaskSitsWhereTheArraysRecordWasMadeBeforeIt() {
        // 11 keeps the record made at submission; 13 the one made when 11 split off (before
        // job 12); the pending record was made when 13 split off (after 12).
        assertThat(SlurmListOrder.all(jobs())).extracting(Job::id).containsExactly(11, 13, 12, 10, 14);
    }

    @Test
    void oneJobByIdListsItsRecordThenTheLatestSplitFirst() {
        List<Job> family =
                jobs().stream().filter(j -> j.array().arrayJobId() == 10).toList();
        assertThat(SlurmListOrder.one(10, family)).extracting(Job::id).containsExactly(10, 13, 11);
    }

    @Test
    void plainJobsKeepTheirIdOrder() {
        assertThat(SlurmListOrder.all(List.of(plain(3), plain(4), plain(9))))
                .extracting(Job::id)
                .containsExactly(3, 4, 9);
    }
}
