package dev.sluice.operator;

import dev.sluice.operator.cluster.KeyedClusters;
import dev.sluice.operator.metrics.AutoscalingMetrics;
import dev.sluice.operator.render.Names;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice-operator}: runs in a pod with the in-cluster service account. Environment:
 * {@code SLUICE_LEADER_ELECTION_NAMESPACE} (the Lease {@code sluice-operator-lease} lives there;
 * unset: no leader election, for a single replica), {@code SLUICE_METRICS_PORT} (default 8080;
 * negative: off), {@code SLUICE_WORK_DIR} (client configuration and keys, default
 * {@code /var/run/sluice-operator}), {@code SLUICE_CTLD_IMAGE}, {@code SLUICE_NODED_IMAGE},
 * {@code SLUICE_DBD_IMAGE} and {@code SLUICE_LOGIN_IMAGE} (the images when a resource names
 * none; the login image also runs sluice-restd).
 */
public final class OperatorMain {
    private static final Logger log = LoggerFactory.getLogger(OperatorMain.class);

    private OperatorMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("Usage: sluice-operator   (configured by the environment; see docs/kubernetes.md)");
            return;
        }
        Clock clock = Clock.systemUTC();
        KubernetesClient client = new KubernetesClientBuilder().build();
        Path work = Path.of(env.getOrDefault("SLUICE_WORK_DIR", "/var/run/sluice-operator"));
        KeyedClusters clusters = new KeyedClusters(work, Names::controllerHost, clock);
        SluiceOperator.Images defaults = SluiceOperator.Images.defaults();
        SluiceOperator.Images images = new SluiceOperator.Images(
                env.getOrDefault("SLUICE_CTLD_IMAGE", defaults.ctld()),
                env.getOrDefault("SLUICE_NODED_IMAGE", defaults.noded()),
                env.getOrDefault("SLUICE_DBD_IMAGE", defaults.dbd()),
                env.getOrDefault("SLUICE_LOGIN_IMAGE", defaults.login()));
        Optional<LeaderElectionConfiguration> election = Optional.ofNullable(
                        env.get("SLUICE_LEADER_ELECTION_NAMESPACE"))
                .filter(ns -> !ns.isBlank())
                .map(ns -> new LeaderElectionConfiguration("sluice-operator-lease", ns));
        SluiceOperator operator = new SluiceOperator(client, clusters, clock, images, election);
        int metricsPort = Integer.parseInt(env.getOrDefault("SLUICE_METRICS_PORT", "8080"));
        AutoscalingMetrics metrics = new AutoscalingMetrics(client, clusters, clock);
        if (metricsPort >= 0) {
            log.info("metrics on :{}/metrics", metrics.serve(metricsPort));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.close();
            metrics.close();
            client.close();
            stopped.countDown();
        }));
        operator.start();
        log.info(
                "sluice-operator started{}",
                election.map(e ->
                                " (leader election in " + e.getLeaseNamespace().orElse("") + ")")
                        .orElse(""));
        stopped.await();
    }
}
