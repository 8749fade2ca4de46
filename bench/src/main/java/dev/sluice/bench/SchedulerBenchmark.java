package dev.sluice.bench;

import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterImage;
import java.util.Set;
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
 * One full scheduling pass (priorities, main scheduling and backfill with Slurm's default
 * reservation depth of 500) over a full cluster with a deep queue: the work the controller does
 * after every batch of commands.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgs = "-Xmx4g")
public class SchedulerBenchmark {
    @Param("1000")
    public int nodes;

    @Param("10000")
    public int jobs;

    ClusterImage image;
    Scheduler scheduler;

    @Setup
    public void setUp() {
        image = Fixtures.busyCluster(nodes, jobs, 1).image();
        scheduler = new Scheduler(SchedulerConfig.defaults(Scheduler.SelectDefaults.builder()
                .memoryConsumable(true)
                .gresNames(Set.of("gpu"))
                .build()));
    }

    @Benchmark
    public SchedulePlan schedulingPass() {
        return scheduler.schedule(image, Fixtures.NOW);
    }
}
