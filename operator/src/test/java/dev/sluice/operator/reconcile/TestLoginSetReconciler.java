package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.operator.crd.LoginSet;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LoginSet reconciler on the mock API server: login pods running sluice-agent as root on the
 * Controller's slurm.conf and key, the users' sssd.conf from its Secret at 0600, owned by the
 * LoginSet, following its replicas; a missing Secret is a condition and an event, and no pods.
 */
class TestLoginSetReconciler {
    private Operated op;

    @BeforeEach
    void start() throws Exception {
        op = new Operated();
        op.client.resource(Resources.controller("lab", 6817, null)).create();
    }

    @AfterEach
    void stop() {
        op.close();
    }

    @Test
    void runsSluiceAgentWithTheControllersConfigurationAndTheUsersFromTheSecret() {
        op.secret("sssd-conf", "sssd.conf", "[sssd]\nservices = nss, pam\n");
        LoginSet set = op.client
                .resource(Resources.loginSet("login", "lab", "sssd-conf"))
                .create();
        var deployment = op.awaitDeployment("login");

        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().getFirst();
        assertThat(container.getCommand()).containsExactly("/opt/sluice/bin/sluice-agent");
        assertThat(container.getArgs()).containsExactly("-D", "--conf", "/etc/slurm/slurm.conf");
        assertThat(container.getImage()).isEqualTo("localhost/sluice-login:latest");
        assertThat(pod.getSecurityContext().getRunAsUser()).isZero();
        assertThat(container.getVolumeMounts())
                .extracting(m -> m.getMountPath())
                .containsExactly("/etc/slurm", "/etc/sssd/sssd.conf");
        var etc = pod.getVolumes().get(0).getProjected();
        assertThat(etc.getSources().get(0).getConfigMap().getName()).isEqualTo("lab-config");
        assertThat(etc.getSources().get(1).getSecret().getName()).isEqualTo(MockApi.KEY_SECRET);
        assertThat(etc.getDefaultMode()).isEqualTo(0400);
        var sssd = pod.getVolumes().get(1).getSecret();
        assertThat(sssd.getSecretName()).isEqualTo("sssd-conf");
        assertThat(sssd.getItems().getFirst().getMode()).isEqualTo(0600);
        Operated.ownedBy(set, deployment);
        op.awaitCondition(LoginSet.class, "login", x -> x.getStatus().conditions, "False", "ReplicasNotReady");

        op.client
                .resources(LoginSet.class)
                .inNamespace(MockApi.NS)
                .withName("login")
                .edit(l -> {
                    l.getSpec().replicas = 3;
                    return l;
                });
        await().atMost(Duration.ofSeconds(20))
                .until(() -> op.awaitDeployment("login").getSpec().getReplicas() == 3);
        op.deploymentReady("login", 3);
        op.awaitCondition(LoginSet.class, "login", x -> x.getStatus().conditions, "True", "AllReplicasReady");
        assertThat(op.client
                        .resources(LoginSet.class)
                        .inNamespace(MockApi.NS)
                        .withName("login")
                        .get()
                        .getStatus()
                        .replicas)
                .isEqualTo(3);
    }

    @Test
    void aMissingUserSecretIsReportedAndNoPodsAreMade() {
        op.client.resource(Resources.loginSet("login", "lab", "sssd-conf")).create();
        op.awaitCondition(LoginSet.class, "login", x -> x.getStatus().conditions, "False", "UserConfigNotFound");
        assertThat(op.eventReasons("login")).contains("UserConfigNotFound");
        assertThat(op.client
                        .apps()
                        .deployments()
                        .inNamespace(MockApi.NS)
                        .withName("login")
                        .get())
                .isNull();
        op.secret("sssd-conf", "sssd.conf", "[sssd]\n");
        op.awaitDeployment("login");
    }
}
