package dev.sluice.bench;

import dev.sluice.ctld.persistence.Journal;
import dev.sluice.ctld.persistence.RecordCodec;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import dev.sluice.protocol.v1.journal.StateSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Journal throughput with group commit: {@code batch} job submissions encoded and appended, then
 * one fsync, as the controller loop does for one batch of commands. Time per batch; records per
 * second is {@code batch} divided by it. The fsync is real, so the figure depends on the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class JournalBenchmark {
    @Param({"1", "64", "512"})
    public int batch;

    Path dir;
    Journal journal;
    JobRequest request;
    long sequence;

    @Setup
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("sluice-bench-journal");
        journal = Journal.open(dir, false).journal();
        request = Fixtures.randomRequest(new Random(1));
    }

    @Benchmark
    public long appendAndSync() throws IOException {
        for (int i = 0; i < batch; i++) {
            long seq = ++sequence;
            JournalEntry entry =
                    RecordCodec.encode(seq, new StateRecord.JobSubmitted((int) seq, request, "cpu", 60, Fixtures.NOW));
            journal.append(entry);
        }
        journal.sync();
        return sequence;
    }

    /** Keeps the segment small between iterations, as the controller's compaction does. */
    @TearDown(Level.Iteration)
    public void compact() throws IOException {
        journal.compact(StateSnapshot.newBuilder().setThroughSequence(sequence).build());
    }

    @TearDown
    public void tearDown() throws IOException {
        journal.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
