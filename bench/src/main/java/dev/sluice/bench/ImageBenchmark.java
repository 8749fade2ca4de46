package dev.sluice.bench;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.StateRecord;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Publishing the immutable {@link ClusterImage} readers see, as the controller loop does after
 * every batch: after a batch that only touched the queue view (nothing to copy again), and after
 * one that changed a job (the job table is copied).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = "-Xmx4g")
public class ImageBenchmark {
    @Param("10000")
    public int nodes;

    @Param("100000")
    public int jobs;

    ClusterState state;
    int pendingJob;
    long sequence = 1_000_000_000L;

    @Setup
    public void setUp() {
        state = Fixtures.busyCluster(nodes, jobs, 1);
        pendingJob = state.jobs().stream()
                .filter(Job::isPending)
                .findFirst()
                .map(Job::id)
                .orElseThrow();
    }

    @Benchmark
    public ClusterImage unchanged() {
        return state.image();
    }

    @Benchmark
    public ClusterImage afterJobChange() {
        Job.Hold hold = state.job(pendingJob).terms().hold() == Job.Hold.NONE ? Job.Hold.USER : Job.Hold.NONE;
        state.replay(++sequence, new StateRecord.JobHoldChanged(pendingJob, hold, Fixtures.NOW));
        return state.image();
    }
}
