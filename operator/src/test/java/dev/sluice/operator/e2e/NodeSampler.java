package dev.sluice.operator.e2e;

import dev.sluice.operator.cluster.SluiceCluster;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The controller's view of a NodeSet's nodes through a rolling update, sampled every 100 ms
 * in-process (a user command is a JVM start, far too slow to see a node's short absence): the
 * most nodes out of service at once, that is not registered, not responding or drained. The
 * kubelet's view alone would miss a replacement pod that runs but whose node daemon has not
 * registered yet.
 */
final class NodeSampler implements AutoCloseable {
    private final SluiceCluster cluster;
    private final List<String> nodes;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "node-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile int maxOut = -1;
    private volatile int samples;

    NodeSampler(SluiceCluster cluster, List<String> nodes) {
        this.cluster = cluster;
        this.nodes = nodes;
        timer.scheduleWithFixedDelay(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            Set<String> serving = new HashSet<>();
            for (SluiceCluster.Node n : cluster.nodes()) {
                if (!n.down() && !n.drained()) {
                    serving.add(n.name());
                }
            }
            int out = (int) nodes.stream().filter(n -> !serving.contains(n)).count();
            maxOut = Math.max(maxOut, out);
            samples++;
        } catch (SluiceCluster.ClusterUnavailableException e) {
            // The controller busy for a moment: the next sample looks again.
        }
    }

    /** The most nodes out of service in one sample; -1 before the first. */
    int maxOut() {
        return maxOut;
    }

    int samples() {
        return samples;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
