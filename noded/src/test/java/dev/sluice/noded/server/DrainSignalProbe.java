package dev.sluice.noded.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordingStream;

/**
 * A process with the node daemon's drain trigger installed, for {@link TestDrainSignal}:
 * {@code jfr} records execution samples until 50 were taken and prints how often the drain
 * started meanwhile; {@code wait} prints its pid, then {@code drained} once the drain starts.
 */
public final class DrainSignalProbe {
    private DrainSignalProbe() {}

    public static void main(String[] args) throws Exception {
        AtomicInteger drains = new AtomicInteger();
        CountDownLatch drained = new CountDownLatch(1);
        DrainSignal.install(() -> {
            drains.incrementAndGet();
            drained.countDown();
        });
        if (args[0].equals("jfr")) {
            CountDownLatch sampled = new CountDownLatch(50);
            try (RecordingStream samples = new RecordingStream()) {
                samples.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(10));
                samples.onEvent("jdk.ExecutionSample", e -> sampled.countDown());
                samples.startAsync();
                long spin = 0;
                while (sampled.getCount() > 0) {
                    spin += Long.numberOfTrailingZeros(spin + 1);
                }
                System.out.println("drains " + drains.get() + " (" + spin % 2 + ")");
            }
        } else {
            System.out.println(ProcessHandle.current().pid());
            System.out.flush();
            drained.await();
            System.out.println("drained " + drains.get());
        }
    }
}
