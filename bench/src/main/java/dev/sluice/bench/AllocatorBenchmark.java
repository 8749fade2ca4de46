package dev.sluice.bench;

import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import java.util.List;
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
 * The allocator placing one GPU job ({@code -N2 --gres=gpu:4 --ntasks-per-node=1}) on a
 * partition of GPU nodes, half of them half busy: one call of the function every scheduling
 * pass makes for every job shape it meets.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AllocatorBenchmark {
    @Param("10000")
    public int nodes;

    List<NodeCapacity> partition;
    PlacementRequest request;

    @Setup
    public void setUp() {
        partition = Fixtures.gpuCapacities(nodes);
        request = Scheduler.placementRequest(
                Fixtures.request(1000, "gpu", 2, 2, "gpu:4", 60),
                Fixtures.partition("gpu", List.of(), true),
                Scheduler.SelectDefaults.builder()
                        .memoryConsumable(true)
                        .gresNames(Set.of("gpu"))
                        .build());
    }

    @Benchmark
    public PlacementResult placeGpuJob() {
        return Allocator.place(partition, request);
    }
}
