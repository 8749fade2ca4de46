package dev.sluice.packaging;

import dev.sluice.common.auth.ClusterKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of {@code ./sluice up}'s daemons. Each listening daemon takes the ports to
 * bind as arguments: {@code 0} at the first start (it binds what the kernel gives and reports it
 * in its ports file, {@link LocalClusterLayout#portsFile}), then, for a restart after a crash, the
 * ports it reported, which the configuration and the other daemons know by then.
 */
final class LocalDaemons {
    private final LocalClusterLayout layout;
    private final String java =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classpath = System.getProperty("java.class.path");

    LocalDaemons(LocalClusterLayout layout) {
        this.layout = layout;
    }

    /** Accounting on the embedded, file-backed H2 (the same Flyway migrations as MariaDB). */
    List<String> dbd(int port) {
        return JvmCommand.of(
                java,
                "DBD",
                List.of(
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED"),
                List.of(
                        "-cp",
                        classpath,
                        "dev.sluice.dbd.server.DbdMain",
                        "-D",
                        "-f",
                        layout.etc().resolve("slurmdbd.conf").toString(),
                        "--data-dir",
                        layout.stateDir().resolve("dbd").toString(),
                        // The gRPC port the controller ships to is this one + 100, bound with it.
                        "--port",
                        Integer.toString(port),
                        "--ports-file",
                        layout.portsFile("dbd").toString(),
                        "--key-file",
                        layout.etc().resolve(ClusterKeys.KEY_FILE).toString()));
    }

    /**
     * @param port 0 at the first start; afterwards -1: the ports slurm.conf and sluice.conf name
     *     by then
     */
    List<String> ctld(int port, int metricsPort) {
        List<String> args = new ArrayList<>(List.of(
                "-cp",
                classpath,
                "dev.sluice.ctld.server.CtldMain",
                "-D",
                "-f",
                layout.slurmConfPath().toString(),
                "--metrics-port",
                Integer.toString(metricsPort),
                "--ports-file",
                layout.portsFile("ctld").toString()));
        if (port >= 0) {
            args.addAll(List.of("--port", Integer.toString(port)));
        }
        // Without C2 too, unlike an installed controller: a local cluster shares a few CPUs with
        // everything else, and C2 still compiled half of a fresh controller's CPU after thousands
        // of jobs (docs/operations.md); SLUICE_CTLD_JAVA_OPTS=-XX:TieredStopAtLevel=4 brings it back.
        return JvmCommand.of(
                java,
                "CTLD",
                List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED"),
                args);
    }

    List<String> noded(String name, int port, int metricsPort) {
        return JvmCommand.of(
                java,
                "NODED",
                // Without C2, as bin/_sluice-java runs an installed node daemon.
                List.of(
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED"),
                List.of(
                        "-cp",
                        classpath,
                        "dev.sluice.noded.server.NodedMain",
                        "-D",
                        "-f",
                        layout.slurmConfPath().toString(),
                        "-N",
                        name,
                        "--port",
                        Integer.toString(port),
                        "--metrics-port",
                        Integer.toString(metricsPort),
                        "--ports-file",
                        layout.portsFile(name).toString()));
    }

    /** The commands' warm runner: bin/sbatch & co. reach it through SLUICE_AGENT_SOCKET. */
    List<String> agent() {
        return List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "--add-opens",
                "java.base/sun.nio.fs=ALL-UNNAMED",
                "-cp",
                classpath,
                "dev.sluice.cli.agent.AgentMain",
                "--socket",
                layout.agentSocket().toString(),
                "--conf",
                layout.slurmConfPath().toString());
    }

    List<String> restd(int port) {
        // One person's cluster, whoever started it: root too, where slurmrestd's root check
        // (LocalMode) would stop it.
        return List.of(
                "/usr/bin/env",
                "SLURMRESTD_SECURITY=disable_user_check",
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                classpath,
                "dev.sluice.restd.RestdMain",
                "-f",
                layout.slurmConfPath().toString(),
                "--ports-file",
                layout.portsFile("restd").toString(),
                "127.0.0.1:" + port);
    }
}
