package dev.sluice.operator.e2e;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the kubelet (and the StatefulSet controller, which the mock API server lacks) for one
 * namespace: every StatefulSet gets its pod {@code NAME-0}; every pod is run as the real Sluice
 * daemon its container names ({@code sluice-ctld}, {@code sluice-noded}), a JVM process on this
 * machine with the test's class path, its volumes materialised under a directory of its own
 * (ConfigMap and Secret files written, a claim template's volume kept across pod restarts); the
 * pod is then reported Running and Ready. A deleted pod's process gets SIGTERM.
 *
 * <p>What a pod network would give is emulated by rewriting, in arguments and configuration
 * files: service DNS names become 127.0.0.1, each node daemon listens on a free port
 * ({@code --port 0}), metrics on a free port, and SlurmUser is the user running the test.
 */
public final class Kubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Kubelet.class);
    private static final Map<String, String> MAINS = Map.of(
            "/opt/sluice/bin/sluice-ctld", "dev.sluice.ctld.server.CtldMain",
            "/opt/sluice/bin/sluice-noded", "dev.sluice.noded.server.NodedMain");

    private final KubernetesClient client;
    private final String namespace;
    private final Path root;
    private final Map<String, Process> running = new ConcurrentHashMap<>();
    private final Map<String, String> runningUid = new ConcurrentHashMap<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelet");
        t.setDaemon(true);
        return t;
    });

    public Kubelet(KubernetesClient client, String namespace, Path root) {
        this.client = client;
        this.namespace = namespace;
        this.root = root;
    }

    public void start() {
        loop.scheduleWithFixedDelay(this::syncQuietly, 0, 200, TimeUnit.MILLISECONDS);
    }

    /** The log of a pod's daemon (all its incarnations). */
    public String logOf(String pod) throws IOException {
        Path f = root.resolve("logs").resolve(pod + ".log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** The process running a pod, for a test that kills it. */
    public Process process(String pod) {
        return running.get(pod);
    }

    private void syncQuietly() {
        try {
            sync();
        } catch (RuntimeException | IOException e) {
            log.warn("kubelet sync: {}", e.toString());
        }
    }

    private void sync() throws IOException {
        for (StatefulSet sts :
                client.apps().statefulSets().inNamespace(namespace).list().getItems()) {
            String name = sts.getMetadata().getName() + "-0";
            if (client.pods().inNamespace(namespace).withName(name).get() == null) {
                client.pods().inNamespace(namespace).resource(podOf(sts, name)).create();
            }
        }
        Set<String> present = new HashSet<>();
        for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
            String name = pod.getMetadata().getName();
            String uid = pod.getMetadata().getUid();
            if (!ownerExists(pod)) {
                // The garbage collector's part: a child whose owner is gone goes too.
                client.pods().inNamespace(namespace).withName(name).delete();
                continue;
            }
            present.add(name);
            Process p = running.get(name);
            if (p != null && !uid.equals(runningUid.get(name))) {
                stop(name); // same name, new pod: the old one's process goes first
                p = null;
            }
            if (p == null) {
                run(pod);
            } else if (!p.isAlive()) {
                // restartPolicy Always
                log.info("pod {} exited with {}; restarting", name, p.exitValue());
                running.remove(name);
                run(pod);
            }
        }
        for (String name : new ArrayList<>(running.keySet())) {
            if (!present.contains(name)) {
                stop(name);
            }
        }
    }

    private boolean ownerExists(Pod pod) {
        var owners = pod.getMetadata().getOwnerReferences();
        if (owners == null || owners.isEmpty()) {
            return true;
        }
        var o = owners.getFirst();
        if (o.getKind().equals("StatefulSet")) {
            return client.apps()
                            .statefulSets()
                            .inNamespace(namespace)
                            .withName(o.getName())
                            .get()
                    != null;
        }
        return client.genericKubernetesResources(o.getApiVersion(), o.getKind())
                        .inNamespace(namespace)
                        .withName(o.getName())
                        .get()
                != null;
    }

    private Pod podOf(StatefulSet sts, String name) {
        var template = sts.getSpec().getTemplate();
        return new PodBuilder()
                .withNewMetadataLike(template.getMetadata())
                .withName(name)
                .withNamespace(namespace)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("apps/v1")
                        .withKind("StatefulSet")
                        .withName(sts.getMetadata().getName())
                        .withUid(sts.getMetadata().getUid())
                        .withController(true)
                        .build())
                .endMetadata()
                .withSpec(template.getSpec())
                .editSpec()
                .withHostname(name)
                .endSpec()
                .build();
    }

    private void run(Pod pod) throws IOException {
        String name = pod.getMetadata().getName();
        Container c = pod.getSpec().getContainers().getFirst();
        String main = MAINS.get(c.getCommand().getFirst());
        if (main == null) {
            throw new IllegalStateException("pod " + name + " runs " + c.getCommand() + ", not a Sluice daemon");
        }
        Path podDir = root.resolve("pods")
                .resolve(name + "-" + pod.getMetadata().getUid().substring(0, 8));
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (VolumeMount m : c.getVolumeMounts()) {
            mounts.put(m.getMountPath(), materialise(pod, m, podDir));
        }
        UnaryOperator<String> rewrite = text -> rewrite(text, mounts);
        // Files were written before the rewrite could name every mount; rewrite them now.
        for (Path dir : mounts.values()) {
            if (Files.isDirectory(dir) && dir.startsWith(podDir)) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        if (f.getFileName().toString().endsWith(".conf")) {
                            Files.writeString(f, rewrite.apply(Files.readString(f)));
                        }
                    }
                }
            }
        }
        Map<String, String> env = env(pod, c);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                main));
        for (String arg : c.getArgs()) {
            cmd.add(rewrite.apply(expand(arg, env)));
        }
        if (main.endsWith("NodedMain")) {
            cmd.addAll(List.of("--port", "0"));
        }
        Path logs = Files.createDirectories(root.resolve("logs"));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(name + ".log").toFile()));
        // A container's /etc/slurm is the pod directory's: where a configless node daemon looks for
        // the cluster key before it has a configuration (it does not use --key-file for that).
        pb.environment()
                .put("SLURM_CONF", podDir.resolve("etc/slurm/slurm.conf").toString());
        Process p = pb.start();
        running.put(name, p);
        runningUid.put(name, pod.getMetadata().getUid());
        log.info("pod {}: started {} as pid {}", name, main, p.pid());
        client.pods().inNamespace(namespace).withName(name).editStatus(s -> {
            s.setStatus(s.getStatus() == null ? new io.fabric8.kubernetes.api.model.PodStatus() : s.getStatus());
            s.getStatus().setPhase("Running");
            s.getStatus().setPodIP("127.0.0.1");
            s.getStatus().setStartTime(Instant.now().toString());
            s.getStatus()
                    .setConditions(List.of(new PodConditionBuilder()
                            .withType("Ready")
                            .withStatus("True")
                            .withLastTransitionTime(Instant.now().toString())
                            .build()));
            return s;
        });
    }

    /** A mount's content on this machine: ConfigMap and Secret files, or a directory. */
    private Path materialise(Pod pod, VolumeMount m, Path podDir) throws IOException {
        Volume v = pod.getSpec().getVolumes().stream()
                .filter(x -> x.getName().equals(m.getName()))
                .findFirst()
                .orElse(null);
        Map<String, byte[]> files = new LinkedHashMap<>();
        Path target;
        if (v == null) {
            // A StatefulSet claim template: the claim outlives the pod.
            String claim = m.getName() + "-" + pod.getMetadata().getName();
            return Files.createDirectories(root.resolve("claims").resolve(claim));
        }
        if (v.getPersistentVolumeClaim() != null) {
            return Files.createDirectories(
                    root.resolve("claims").resolve(v.getPersistentVolumeClaim().getClaimName()));
        }
        if (v.getProjected() != null) {
            for (var source : v.getProjected().getSources()) {
                if (source.getConfigMap() != null) {
                    files.putAll(configMap(source.getConfigMap().getName()));
                }
                if (source.getSecret() != null) {
                    Map<String, byte[]> data = secret(source.getSecret().getName());
                    for (var item : source.getSecret().getItems()) {
                        files.put(item.getPath(), data.get(item.getKey()));
                    }
                }
            }
        } else if (v.getConfigMap() != null) {
            files.putAll(configMap(v.getConfigMap().getName()));
        } else if (v.getSecret() != null) {
            files.putAll(secret(v.getSecret().getSecretName()));
        }
        target = podDir.resolve(m.getMountPath().substring(1));
        if (m.getSubPath() != null && !m.getSubPath().isEmpty()) {
            Files.createDirectories(target.getParent());
            ownerOnly(target, files.get(m.getSubPath()));
            return target;
        }
        Files.createDirectories(target);
        for (var f : files.entrySet()) {
            ownerOnly(target.resolve(f.getKey()), f.getValue());
        }
        return target;
    }

    private static void ownerOnly(Path file, byte[] content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(
                file,
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.write(file, content);
    }

    private Map<String, byte[]> configMap(String name) {
        ConfigMap cm = client.configMaps().inNamespace(namespace).withName(name).get();
        Map<String, byte[]> out = new LinkedHashMap<>();
        cm.getData().forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    private Map<String, byte[]> secret(String name) {
        Secret s = client.secrets().inNamespace(namespace).withName(name).get();
        Map<String, byte[]> out = new LinkedHashMap<>();
        s.getData().forEach((k, v) -> out.put(k, Base64.getDecoder().decode(v)));
        return out;
    }

    private static Map<String, String> env(Pod pod, Container c) {
        Map<String, String> env = new LinkedHashMap<>();
        if (c.getEnv() != null) {
            for (EnvVar e : c.getEnv()) {
                String value = e.getValue();
                if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                    value = switch (e.getValueFrom().getFieldRef().getFieldPath()) {
                        case "metadata.name" -> pod.getMetadata().getName();
                        case "status.podIP" -> "127.0.0.1";
                        default -> "";
                    };
                }
                env.put(e.getName(), value == null ? "" : value);
            }
        }
        return env;
    }

    private static String expand(String arg, Map<String, String> env) {
        String out = arg;
        for (var e : env.entrySet()) {
            out = out.replace("$(" + e.getKey() + ")", e.getValue());
        }
        return out;
    }

    private static String rewrite(String text, Map<String, Path> mounts) {
        String out = text.replaceAll("[a-z0-9.-]+\\.svc\\.cluster\\.local", "127.0.0.1")
                .replaceAll("(?m)^SlurmUser=.*$", "SlurmUser=" + System.getProperty("user.name"))
                .replaceAll("(?m)^SlurmctldMetricsPort=.*$", "SlurmctldMetricsPort=0");
        for (var m : mounts.entrySet()) {
            out = out.replace(m.getKey(), m.getValue().toString());
        }
        return out;
    }

    private void stop(String name) {
        Process p = running.remove(name);
        runningUid.remove(name);
        if (p == null) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("pod {}: stopped", name);
    }

    @Override
    public void close() {
        loop.shutdownNow();
        try {
            loop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (String name : new ArrayList<>(running.keySet())) {
            stop(name);
        }
    }
}
