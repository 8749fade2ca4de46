package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobInfo;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The whole-queue answer pollers share: converted once per image, named by a version. */
class TestSharedJobsAnswer {
    private final SharedJobsAnswer shared = new SharedJobsAnswer();
    private final AtomicInteger conversions = new AtomicInteger();

    private static ClusterImage image() {
        return ClusterImage.ofJob(Job.submitted(1, aJob().build(), "p", 10, 100));
    }

    private Supplier<GetJobsResponse> queueOf(String... reasons) {
        return () -> {
            conversions.incrementAndGet();
            GetJobsResponse.Builder out = GetJobsResponse.newBuilder().setUpdateTime(42);
            for (String n : reasons) {
                out.addJobs(JobInfo.newBuilder().setReason(n));
            }
            return out.build();
        };
    }

    @Test
    void oneImageIsConvertedOnceAndItsVersionIsAnsweredUnchanged() {
        ClusterImage image = image();
        GetJobsResponse first = shared.answer(image, false, 0, queueOf("a", "b"));
        GetJobsResponse again = shared.answer(image, false, 0, queueOf("a", "b"));
        assertThat(again).isSameAs(first);
        assertThat(first.getVersion()).isNotZero();
        assertThat(first.getJobsCount()).isEqualTo(2);

        GetJobsResponse known = shared.answer(image, false, first.getVersion(), queueOf("a", "b"));
        assertThat(known.getUnchanged()).isTrue();
        assertThat(known.getJobsCount()).isZero();
        assertThat(known.getVersion()).isEqualTo(first.getVersion());
        assertThat(known.getUpdateTime()).isEqualTo(42);
        assertThat(conversions).hasValue(1);
    }

    @Test
    void aNewImageWithTheSameJobsKeepsTheVersionAndAChangedQueueGetsANewOne() {
        GetJobsResponse first = shared.answer(image(), false, 0, queueOf("a"));
        // A heartbeat published a new image; the queue reads the same.
        GetJobsResponse same = shared.answer(image(), false, first.getVersion(), queueOf("a"));
        assertThat(same.getUnchanged()).isTrue();

        GetJobsResponse changed = shared.answer(image(), false, first.getVersion(), queueOf("a", "b"));
        assertThat(changed.getUnchanged()).isFalse();
        assertThat(changed.getJobsCount()).isEqualTo(2);
        assertThat(changed.getVersion()).isNotEqualTo(first.getVersion());
        // A client holding an older (or a stranger's) version gets the whole queue.
        assertThat(shared.answer(image(), false, first.getVersion(), queueOf("a", "b"))
                        .getJobsCount())
                .isEqualTo(2);
    }

    @Test
    void activeOnlyAndWholeQueueAreDifferentAnswers() {
        ClusterImage image = image();
        GetJobsResponse all = shared.answer(image, false, 0, queueOf("a", "done"));
        GetJobsResponse active = shared.answer(image, true, all.getVersion(), queueOf("a"));
        assertThat(active.getUnchanged()).isFalse();
        assertThat(active.getJobsCount()).isEqualTo(1);
    }

    @Test
    void twoControllersDoNotShareVersions() {
        GetJobsResponse one = shared.answer(image(), false, 0, queueOf("a"));
        GetJobsResponse other = new SharedJobsAnswer().answer(image(), false, one.getVersion(), queueOf("b"));
        assertThat(other.getUnchanged()).isFalse();
        assertThat(other.getJobsList()).extracting(JobInfo::getReason).containsExactly("b");
    }
}
