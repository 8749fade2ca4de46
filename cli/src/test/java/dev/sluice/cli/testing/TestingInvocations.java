package dev.sluice.cli.testing;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs commands in-process against a fixed caller, clock and user directory. */
public final class TestingInvocations {

    public static final UserDirectory USERS = UserDirectory.fromLines(
            List.of("root:x:0:0:root:/root:/bin/bash", "alice:x:1000:1000::/home/alice:/bin/sh"),
            List.of("root:x:0:", "alice:x:1000:"));

    public static final Caller ROOT = new Caller(0, 0, "root", "localhost");

    private TestingInvocations() {}

    public record Output(int exitCode, String out, String err) {}

    public static Invocation invocation(Path cwd, Map<String, String> env, String stdin, String... args) {
        return invocation(Fixtures.LATER_NOW, cwd, env, stdin, args);
    }

    public static Invocation invocation(Instant now, Path cwd, Map<String, String> env, String stdin, String... args) {
        return new Invocation(
                List.of(args),
                env,
                cwd,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                ROOT,
                Clock.fixed(now, ZoneOffset.UTC),
                USERS);
    }

    public static Output run(Command command, Invocation inv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = command.run(inv, o, e);
        }
        return new Output(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Runs a command standalone and again through an in-process {@code sluice-agent} (as the
     * native front end would reach it), asserts both give the same bytes and exit code, and
     * returns the answer. The agent sees the test's own process as its peer.
     */
    public static Output runBothWays(
            Command command, Instant now, Path cwd, Map<String, String> env, String stdin, String... args) {
        Output standalone = run(command, invocation(now, cwd, env, stdin, args));
        String name = dev.sluice.cli.Commands.names().stream()
                .filter(n -> dev.sluice.cli.Commands.byName(n)
                        .map(c -> c.getClass() == command.getClass())
                        .orElse(false))
                .findFirst()
                .orElseThrow();
        try (AgentHarness agent = new AgentHarness(
                cwd,
                dev.sluice.cli.client.ControllerLocator.confPath(env, cwd),
                dev.sluice.cli.Commands::byName,
                USERS,
                Clock.fixed(now, ZoneOffset.UTC))) {
            Output viaAgent = agent.run(AgentHarness.argv(name, args), env, cwd, stdin);
            org.assertj.core.api.Assertions.assertThat(viaAgent)
                    .as("%s %s through the agent", name, List.of(args))
                    .isEqualTo(standalone);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return standalone;
    }

    /** A minimal slurm.conf naming one controller at 127.0.0.1:{@code port}; returns its env. */
    public static Map<String, String> confFor(Path dir, int port) throws IOException {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(conf, """
                ClusterName=test
                SlurmctldHost=ctl(127.0.0.1)
                SlurmctldPort=%d
                GresTypes=gpu,mps,shard
                NodeName=n[1-3] CPUs=4 RealMemory=8000 State=UNKNOWN
                PartitionName=gpu Nodes=n[1-3] Default=YES MaxTime=60 State=UP
                """.formatted(port));
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_CONF", conf.toString());
        env.put("HOME", "/root");
        return env;
    }

    /**
     * A slurm.conf for cluster "anchor" whose accounting is the slurmdbd-protocol daemon at
     * 127.0.0.1:{@code dbdPort} (a test's FakeDbd), with the given node and partition lines;
     * returns its env ({@code SLURM_CONF}).
     */
    public static Map<String, String> accountingConf(Path dir, int dbdPort, String nodeLine, String partitionLine)
            throws IOException {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(conf, """
                ClusterName=anchor
                SlurmctldHost=vm(127.0.0.1)
                AccountingStorageType=accounting_storage/slurmdbd
                AccountingStorageHost=127.0.0.1
                AccountingStoragePort=%d
                %s
                %s
                """.formatted(dbdPort, nodeLine, partitionLine));
        return Map.of("SLURM_CONF", conf.toString());
    }

    public static String golden(String name) throws IOException {
        try (var in = TestingInvocations.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IOException("no golden file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
