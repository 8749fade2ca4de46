package dev.sluice.operator.cluster;

import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.render.Names;
import dev.sluice.operator.render.OperatorToken;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Reaches each controller as a command would: a client {@code slurm.conf} naming the controller's
 * address and port, in an owner-only directory of the operator's, and either the operator's own
 * JWT ({@link OperatorToken}, for a Controller with {@code jwtHs256KeyRef}) or else the cluster
 * key from the Controller's {@code slurmKeyRef} Secret beside it. Rebuilt when the token, the key, the
 * address or the port change.
 */
public final class KeyedClusters implements Clusters {
    private record Entry(String identity, SluiceCluster cluster) {}

    private final Path workDir;
    private final Function<Controller, String> address;
    private final Clock clock;
    private final Map<String, Entry> cache = new ConcurrentHashMap<>();

    /**
     * @param address the host the operator reaches a controller at (in a cluster: its Service's
     *     DNS name, {@link Names#controllerHost})
     */
    public KeyedClusters(Path workDir, Function<Controller, String> address, Clock clock) {
        this.workDir = workDir;
        this.address = address;
        this.clock = clock;
    }

    @Override
    public SluiceCluster forController(KubernetesClient client, Controller c)
            throws SluiceCluster.ClusterUnavailableException {
        String ns = c.getMetadata().getNamespace();
        Optional<String> token = operatorToken(client, c);
        byte[] key = null;
        if (token.isEmpty()) {
            var ref = c.getSpec().slurmKeyRef;
            Secret secret =
                    client.secrets().inNamespace(ns).withName(ref.getName()).get();
            if (secret == null || secret.getData() == null || !secret.getData().containsKey(ref.getKey())) {
                throw new SluiceCluster.ClusterUnavailableException(
                        "Secret " + ns + "/" + ref.getName() + " has no key " + ref.getKey(), null);
            }
            key = Base64.getDecoder().decode(secret.getData().get(ref.getKey()));
        }
        String host = address.apply(c);
        int port = Names.ctldPort(c);
        String identity = host + ":" + port + ":" + (key != null ? Arrays.hashCode(key) : "jwt:" + token.get());
        String id = ns + "/" + c.getMetadata().getName();
        Entry e = cache.get(id);
        if (e != null && e.identity().equals(identity)) {
            return e.cluster();
        }
        try {
            Path dir = workDir.resolve(ns).resolve(c.getMetadata().getName());
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path keyFile = dir.resolve("slurm.key");
            Files.deleteIfExists(keyFile);
            if (key != null) {
                Files.createFile(
                        keyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.write(keyFile, key);
            }
            Path conf = dir.resolve("slurm.conf");
            Files.writeString(
                    conf,
                    "ClusterName=" + Names.clusterName(c) + "\n"
                            + "SlurmctldHost=" + c.getMetadata().getName() + "-0(" + host + ")\n"
                            + "SlurmctldPort=" + port + "\n"
                            // No socket lives here: the operator always goes over the network.
                            + "StateSaveLocation=" + dir.resolve("none") + "\n");
            ClusterAccess access = ClusterAccess.read(conf);
            SluiceCluster cluster = token.isPresent()
                    ? ClientSluiceCluster.withToken(access, token.get(), clock)
                    : new ClientSluiceCluster(access, clock);
            cache.put(id, new Entry(identity, cluster));
            return cluster;
        } catch (IOException | ConfigException ex) {
            throw new SluiceCluster.ClusterUnavailableException("cannot set up a client for " + id + ": " + ex, ex);
        }
    }

    /**
     * The operator's own JWT for this controller ({@link OperatorToken}), once its Token has been
     * minted; until then (and for a Controller without {@code jwtHs256KeyRef}) the cluster key.
     */
    private static Optional<String> operatorToken(KubernetesClient client, Controller c) {
        if (c.getSpec().jwtHs256KeyRef == null) {
            return Optional.empty();
        }
        Secret s = client.secrets()
                .inNamespace(c.getMetadata().getNamespace())
                .withName(OperatorToken.secretName(c))
                .get();
        if (s == null || s.getData() == null || !s.getData().containsKey(OperatorToken.KEY)) {
            return Optional.empty();
        }
        return Optional.of(new String(
                        Base64.getDecoder().decode(s.getData().get(OperatorToken.KEY)), StandardCharsets.UTF_8)
                .strip());
    }
}
