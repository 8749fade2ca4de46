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

    /**
     * sluice-restd as installed (bin/_sluice-java: the JVM's default heap and collector), on
     * loopback, on a port the kernel picks; whoever runs the benchmark, root too (slurmrestd's
     * root check off).
     *
     * @param prefix what the command runs under (e.g. {@code taskset -c 0}); empty for nothing
     */
    public static List<String> restd(List<String> prefix, Path slurmConf, Path portsFile) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(List.of("/usr/bin/env", "SLURMRESTD_SECURITY=disable_user_check"));
        c.addAll(java(
                List.of("--enable-native-access=ALL-UNNAMED"),
                List.of(),
                "dev.sluice.restd.RestdMain",
                List.of("-f", slurmConf.toString(), "--ports-file", portsFile.toString(), "127.0.0.1:0")));
        return c;
    }

    /** A main class of this build in a JVM of its own, under {@code prefix} (e.g. taskset). */
    public static List<String> main(List<String> prefix, List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(java(jvmOptions, List.of(), mainClass, args));
        return c;
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
