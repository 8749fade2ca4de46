package dev.sluice.operator;

import dev.sluice.operator.cluster.Clusters;
import dev.sluice.operator.reconcile.AccountingReconciler;
import dev.sluice.operator.reconcile.ControllerReconciler;
import dev.sluice.operator.reconcile.LoginSetReconciler;
import dev.sluice.operator.reconcile.NodeSetReconciler;
import dev.sluice.operator.reconcile.RestApiReconciler;
import dev.sluice.operator.reconcile.TokenReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The operator: the Controller, NodeSet and Token reconcilers on one Java Operator SDK {@link Operator}.
 * Primary resources are patched with JSON merge patches, not server-side apply, so the operator
 * works against any API server (and fabric8's mock server in tests).
 */
public final class SluiceOperator implements AutoCloseable {
    /** Images used when a resource names none. */
    public record Images(String ctld, String noded, String dbd, String login) {
        public static Images defaults() {
            return new Images(
                    "localhost/sluice-ctld:latest",
                    "localhost/sluice-noded:latest",
                    "localhost/sluice-dbd:latest",
                    "localhost/sluice-login:latest");
        }
    }

    private final Operator operator;

    public SluiceOperator(
            KubernetesClient client,
            Clusters clusters,
            Clock clock,
            Images images,
            Optional<LeaderElectionConfiguration> leaderElection) {
        this(client, clusters, clock, images, leaderElection, Duration.ofMinutes(1));
    }

    /** @param tokenRecheck the longest wait before a refreshed Token is looked at again */
    public SluiceOperator(
            KubernetesClient client,
            Clusters clusters,
            Clock clock,
            Images images,
            Optional<LeaderElectionConfiguration> leaderElection,
            Duration tokenRecheck) {
        operator = new Operator(o -> {
            o.withKubernetesClient(client)
                    .withCloseClientOnStop(false)
                    .withUseSSAToPatchPrimaryResource(false)
                    .withReconciliationTerminationTimeout(Duration.ofSeconds(10));
            leaderElection.ifPresent(o::withLeaderElectionConfiguration);
        });
        operator.register(new ControllerReconciler(clusters, clock, images.ctld()));
        operator.register(new NodeSetReconciler(clusters, clock, images.noded()));
        operator.register(new TokenReconciler(clock, tokenRecheck));
        operator.register(new AccountingReconciler(clock, images.dbd()));
        // The login image carries every daemon: sluice-restd runs from it.
        operator.register(new RestApiReconciler(clock, images.login()));
        operator.register(new LoginSetReconciler(clock, images.login()));
    }

    public void start() {
        operator.start();
    }

    @Override
    public void close() {
        operator.stop();
    }
}
