package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.config.DbdConfigs;
import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.Controller;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Accounting reconciler on the mock API server: slurmdbd.conf for the referenced MariaDB
 * (read back with sluice-dbd's own parser) in a Secret, never a ConfigMap, since it holds the
 * password; the Deployment and Service of sluice-dbd; all owned by the Accounting; a changed
 * password rolls the pod; a missing password Secret is a condition and an event, and nothing is
 * made; a Controller naming the Accounting records to it.
 */
class TestAccountingReconciler {
    private Operated op;

    @BeforeEach
    void start() throws Exception {
        op = new Operated();
    }

    @AfterEach
    void stop() {
        op.close();
    }

    @Test
    void runsSluiceDbdForTheReferencedMariaDbWithThePasswordInAnOwnedSecret() {
        op.secret("mariadb-password", "password", "s3cret\n");
        Accounting a = op.client
                .resource(Resources.accounting("acct", "mariadb.db.svc.cluster.local", "mariadb-password"))
                .create();
        var deployment = op.awaitDeployment("acct");

        DbdConfig conf = DbdConfigs.parse(
                op.secretText("acct-config", "slurmdbd.conf"), "slurmdbd.conf", DbdConfigs.Overrides.none());
        assertThat(conf.jdbcUrl()).isEqualTo("jdbc:mariadb://mariadb.db.svc.cluster.local:3306/slurm_acct_db");
        assertThat(conf.storageUser()).isEqualTo("slurm");
        assertThat(conf.storagePass()).isEqualTo("s3cret");
        assertThat(conf.dbdPort()).isEqualTo(6819);
        assertThat(conf.grpcPort()).isEqualTo(6919);
        assertThat(op.client.configMaps().inNamespace(MockApi.NS).list().getItems())
                .allSatisfy(cm -> assertThat(cm.getData().toString()).doesNotContain("s3cret"));

        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().getFirst();
        assertThat(container.getCommand()).containsExactly("/opt/sluice/bin/sluice-dbd");
        assertThat(container.getArgs()).containsExactly("-D", "-f", "/etc/slurm/slurmdbd.conf");
        assertThat(container.getImage()).isEqualTo("localhost/sluice-dbd:latest");
        assertThat(pod.getVolumes().getFirst().getProjected().getSources())
                .extracting(s -> s.getSecret().getName())
                .containsExactly("acct-config", MockApi.KEY_SECRET);
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(999L);
        // Root's files, readable through the pod's group; never by others (the key loader refuses that).
        assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(999L);
        assertThat(pod.getVolumes().getFirst().getProjected().getDefaultMode()).isEqualTo(0440);
        var service =
                op.client.services().inNamespace(MockApi.NS).withName("acct").get();
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(6819, 6919);
        Operated.ownedBy(
                a,
                deployment,
                service,
                op.client
                        .secrets()
                        .inNamespace(MockApi.NS)
                        .withName("acct-config")
                        .get());
        op.awaitCondition(Accounting.class, "acct", x -> x.getStatus().conditions, "False", "PodNotReady");
        assertThat(op.eventReasons("acct")).contains("ConfigRendered");

        // A new password reaches the file, and the pod template's hash rolls the pod.
        String hash = deployment
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("sluice.dev/config-hash");
        op.secret("mariadb-password", "password", "n3w");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> op.secretText("acct-config", "slurmdbd.conf").contains("StoragePass=n3w\n"));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !hash.equals(op.awaitDeployment("acct")
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getAnnotations()
                        .get("sluice.dev/config-hash")));

        op.deploymentReady("acct", 1);
        op.awaitCondition(Accounting.class, "acct", x -> x.getStatus().conditions, "True", "PodReady");
    }

    @Test
    void aMissingPasswordSecretIsReportedAndNothingIsMadeUntilItExists() {
        op.client.resource(Resources.accounting("acct", "mariadb", "nowhere")).create();
        op.awaitCondition(Accounting.class, "acct", x -> x.getStatus().conditions, "False", "PasswordNotFound");
        assertThat(op.eventReasons("acct")).contains("PasswordNotFound");
        assertThat(op.client
                        .apps()
                        .deployments()
                        .inNamespace(MockApi.NS)
                        .withName("acct")
                        .get())
                .isNull();
        assertThat(op.client
                        .secrets()
                        .inNamespace(MockApi.NS)
                        .withName("acct-config")
                        .get())
                .isNull();

        op.secret("nowhere", "password", "pw");
        op.awaitDeployment("acct");
        op.awaitCondition(Accounting.class, "acct", x -> x.getStatus().conditions, "False", "PodNotReady");
    }

    @Test
    void aControllerNamingTheAccountingRecordsToItsService() {
        op.secret("mariadb-password", "password", "pw");
        Accounting a = Resources.accounting("acct", "mariadb", "mariadb-password");
        a.getSpec().service = new dev.sluice.operator.crd.ServiceSpec();
        a.getSpec().service.port = 7019;
        op.client.resource(a).create();
        Controller c = Resources.controller("lab", 6817, null);
        c.getSpec().accountingRef = new LocalObjectReference("acct");
        op.client.resource(c).create();
        await().atMost(Duration.ofSeconds(20))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(op.client
                                .configMaps()
                                .inNamespace(MockApi.NS)
                                .withName("lab-config")
                                .get()
                                .getData()
                                .get("slurm.conf"))
                        .contains(
                                "AccountingStorageType=accounting_storage/slurmdbd\n",
                                "AccountingStorageHost=acct.hpc.svc.cluster.local\n",
                                "AccountingStoragePort=7019\n"));
    }
}
