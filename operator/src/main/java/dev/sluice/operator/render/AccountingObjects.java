package dev.sluice.operator.render;

import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.StorageConfig;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link Accounting}'s children: {@code slurmdbd.conf} in a Secret {@code <name>-config}
 * (it carries the MariaDB password, so not a ConfigMap, as Slinky keeps it), a Service with
 * DbdPort (the commands) and DbdPort + 100 (the controllers' gRPC), and a one-replica Deployment
 * of {@code sluice-dbd} reading the file, the cluster key beside it. The database is the site's,
 * given by reference ({@code storageConfig}); the daemon keeps no state of its own.
 */
public final class AccountingObjects {
    private AccountingObjects() {}

    public static String configSecret(Accounting a) {
        return a.getMetadata().getName() + "-config";
    }

    public static int port(Accounting a) {
        return Names.port(a.getSpec().service, Names.DEFAULT_DBD_PORT);
    }

    /** slurmdbd.conf for MariaDB at {@code storageConfig}, with {@code password}, then extraConf. */
    public static String slurmdbdConf(Accounting a, String password) {
        StorageConfig st = a.getSpec().storageConfig;
        List<String> lines = new ArrayList<>();
        lines.add("# Rendered by sluice-operator from Accounting "
                + a.getMetadata().getName() + "; do not edit.");
        lines.add("DbdPort=" + port(a));
        lines.add("SlurmUser=slurm");
        lines.add("StorageType=accounting_storage/mysql");
        lines.add("StorageHost=" + st.host);
        lines.add("StoragePort=" + (st.port == null ? 3306 : st.port));
        lines.add("StorageLoc=" + (st.database == null ? "slurm_acct_db" : st.database));
        if (st.username != null) {
            lines.add("StorageUser=" + st.username);
        }
        if (password != null) {
            lines.add("StoragePass=" + password);
        }
        if (a.getSpec().jwtHs256KeyRef != null) {
            lines.add("AuthAltTypes=auth/jwt");
            lines.add("AuthAltParameters=jwt_key=" + Names.JWT_KEY);
        }
        return SlurmConfRenderer.overridden(lines, a.getSpec().extraConf);
    }

    public static Secret secret(Accounting a, String password) {
        return new SecretBuilder()
                .withNewMetadata()
                .withName(configSecret(a))
                .withNamespace(a.getMetadata().getNamespace())
                .withLabels(labels(a))
                .endMetadata()
                .addToData(
                        "slurmdbd.conf",
                        Base64.getEncoder()
                                .encodeToString(slurmdbdConf(a, password).getBytes(StandardCharsets.UTF_8)))
                .build();
    }

    public static Service service(Accounting a) {
        return Deployments.service(daemon(a, ""));
    }

    public static Deployment deployment(Accounting a, String defaultImage, String configHash) {
        return Deployments.deployment(daemon(a, configHash), a.getSpec().slurmdbd, a.getSpec().template, defaultImage);
    }

    private static Map<String, String> labels(Accounting a) {
        return Names.componentLabels(a.getMetadata().getName(), "accounting");
    }

    private static Deployments.Daemon daemon(Accounting a, String configHash) {
        int port = port(a);
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("slurmdbd", port);
        ports.put("grpc", port + Names.GRPC_OFFSET);
        var key = a.getSpec().slurmKeyRef;
        var etc = new VolumeBuilder()
                .withName("etc-slurm")
                .withNewProjected()
                // Group-readable: the files are root's, the daemon reads them through fsGroup 999.
                .withDefaultMode(0440)
                .addNewSource()
                .withNewSecret()
                .withName(configSecret(a))
                .endSecret()
                .endSource()
                .addNewSource()
                .withNewSecret()
                .withName(key.getName())
                .addNewItem()
                .withKey(key.getKey())
                .withPath("slurm.key")
                .endItem()
                .endSecret()
                .endSource();
        var jwt = a.getSpec().jwtHs256KeyRef;
        if (jwt != null) {
            etc.addNewSource()
                    .withNewSecret()
                    .withName(jwt.getName())
                    .addNewItem()
                    .withKey(jwt.getKey())
                    .withPath("jwt_hs256.key")
                    .endItem()
                    .endSecret()
                    .endSource();
        }
        Volume volume = etc.endProjected().build();
        return new Deployments.Daemon(
                a.getMetadata().getName(),
                a.getMetadata().getNamespace(),
                labels(a),
                1,
                "slurmdbd",
                "/opt/sluice/bin/sluice-dbd",
                List.of("-D", "-f", Names.ETC + "/slurmdbd.conf"),
                ports,
                List.of(new VolumeMountBuilder()
                        .withName("etc-slurm")
                        .withMountPath(Names.ETC)
                        .withReadOnly(true)
                        .build()),
                List.of(volume),
                new PodSecurityContextBuilder()
                        .withRunAsUser(999L)
                        .withRunAsGroup(999L)
                        .withFsGroup(999L)
                        .build(),
                configHash.isEmpty() ? Map.of() : Map.of("sluice.dev/config-hash", configHash));
    }
}
