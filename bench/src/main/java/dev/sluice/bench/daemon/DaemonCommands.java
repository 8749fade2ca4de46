package dev.sluice.bench.daemon;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines the benchmarks start the daemons with: this JVM's java and class path, each
 * daemon in the foreground ({@code -D}) on port 0, reporting the ports it bound in a ports file.
 */
public final class DaemonCommands {
    private DaemonCommands() {}

    /**
     * sluice-ctld with a 1 GiB heap.
     *
     * @param javaOptions more JVM options (e.g. a JFR recording)
     */
    public static List<String> ctld(List<String> javaOptions, Path slurmConf, Path portsFile) {
        return java(
                List.of("-Xmx1g", "--enable-native-access=ALL-UNNAMED"),
                javaOptions,
                "dev.sluice.ctld.server.CtldMain",
                List.of("-D", "-f", slurmConf.toString(), "--port", "0", "--ports-file", portsFile.toString()));
    }

    /**
     * sluice-dbd as installed (_sluice-java): C1 only, serial GC, 256 MiB.
     *
     * @param javaOptions more JVM options; {@code -XX:TieredStopAtLevel=4} gives it C2
     * @param storage where its database is: {@code --jdbc-url URL} or {@code --data-dir DIR}
     */
    public static List<String> dbd(
            List<String> javaOptions, Path slurmdbdConf, Path portsFile, Path keyFile, List<String> storage) {
        List<String> args = new ArrayList<>(List.of(
                "-D",
                "-f",
                slurmdbdConf.toString(),
                "--port",
                "0",
                "--ports-file",
                portsFile.toString(),
                "--key-file",
                keyFile.toString()));
        args.addAll(storage);
        return java(
                List.of(
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED"),
                javaOptions,
                "dev.sluice.dbd.server.DbdMain",
                args);
    }

    private static List<String> java(
            List<String> jvmOptions, List<String> moreJvmOptions, String mainClass, List<String> args) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(jvmOptions);
        c.addAll(moreJvmOptions);
        c.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        c.addAll(args);
        return c;
    }
}
