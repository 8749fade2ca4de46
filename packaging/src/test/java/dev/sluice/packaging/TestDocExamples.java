package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The terminal examples of docs/scheduling.md, docs/commands.md and docs/rest.md run as written: each block
 * ({@link DocTranscripts}) on the cluster it asks for, started as {@code ./sluice up} starts it
 * ({@link SluiceUp}), every {@code $} line run by bash in the directory the cluster's
 * {@code .sluice} is in, with the {@code source} lines before it, as the reader types them; what
 * each prints (standard output and error, as a terminal shows them) must be the lines the page
 * shows, compared as {@link DocOutput} says. A cluster is stopped after the last block that uses
 * it. The page's {@code ./sluice up} line is not run by bash: the reader runs it in another
 * shell (it stays in the foreground), and here it is the cluster this test starts for the block.
 * Root only, as .ci/run runs it: the pages show root's session ({@code Users=root}).
 */
class TestDocExamples {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** The pages; {@code -Dsluice.doc.pages=docs/rest.md} runs one while it is being written. */
    private static final List<String> PAGES =
            List.of(System.getProperty("sluice.doc.pages", "docs/scheduling.md,docs/commands.md,docs/rest.md")
                    .split(","));

    @TempDir
    static Path base;

    private static final List<SluiceUp> running = new ArrayList<>();

    /** The blocks that share a cluster, in page order, and that cluster once started. */
    private static final class Session {
        final List<DocTranscripts.Block> blocks = new ArrayList<>();
        final String page;
        final Path home;
        final List<String> shell = new ArrayList<>();
        SluiceUp cluster;

        Session(String page, Path home) {
            this.page = page;
            this.home = home;
        }
    }

    @TestFactory
    Stream<DynamicNode> everyExampleRunsAsWritten() throws IOException {
        // The pages show root's session (Users=root, root's association), as .ci/run runs the suite.
        boolean root = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        if (!root && System.getenv("CI") != null) {
            throw new AssertionError("the documentation examples run as root in CI");
        }
        assumeTrue(root, "the pages' examples are root's session: needs root");
        List<Session> sessions = new ArrayList<>();
        for (String page : PAGES) {
            for (DocTranscripts.Block b : DocTranscripts.parse(Files.readString(REPO.resolve(page)), page)) {
                if (b.newCluster().isPresent()) {
                    sessions.add(new Session(page, base.resolve("cluster" + sessions.size())));
                }
                assertThat(sessions.isEmpty() ? null : sessions.getLast().page)
                        .as(b.where() + " goes on in the cluster of a block before it on its page")
                        .isEqualTo(page);
                sessions.getLast().blocks.add(b);
            }
        }
        int commands = sessions.stream()
                .flatMap(s -> s.blocks.stream())
                .mapToInt(b -> b.steps().size())
                .sum();
        System.out.println("TestDocExamples: "
                + sessions.stream().mapToInt(s -> s.blocks.size()).sum() + " blocks, " + commands + " commands, on "
                + sessions.size() + " clusters");
        return sessions.stream()
                .map(s -> DynamicContainer.dynamicContainer(
                        s.blocks.getFirst().where(),
                        s.blocks.stream()
                                .map(b -> DynamicTest.dynamicTest(b.where(), () -> {
                                    try {
                                        run(s, b);
                                    } finally {
                                        if (b == s.blocks.getLast() && s.cluster != null) {
                                            s.cluster.close();
                                            running.remove(s.cluster);
                                        }
                                    }
                                }))));
    }

    @AfterAll
    static void down() throws InterruptedException {
        for (SluiceUp c : running) {
            c.close();
        }
    }

    private static void run(Session s, DocTranscripts.Block block) throws Exception {
        if (s.cluster == null) {
            List<String> args = s.blocks.getFirst().newCluster().orElseThrow();
            s.cluster = SluiceUp.start(
                    s.home, s.home.resolve(".sluice"), List.of("-Dsluice.bin=" + REPO.resolve("bin")), args);
            running.add(s.cluster);
            s.cluster.awaitUp();
        }
        StringBuilder failures = new StringBuilder();
        for (DocTranscripts.Step step : block.steps()) {
            if (step.upArguments().isPresent()) {
                continue;
            }
            String out = bash(s, step.command());
            if (step.setsUpShell()) {
                s.shell.add(step.command());
            }
            List<String> actual = out.lines().toList();
            if (!DocOutput.normalised(actual, block.varying())
                    .equals(DocOutput.normalised(step.expected(), block.varying()))) {
                failures.append("\n--- ")
                        .append(block.where())
                        .append(", line ")
                        .append(step.line())
                        .append(": $ ")
                        .append(step.command())
                        .append("\nexpected (the page):\n")
                        .append(String.join("\n", step.expected()))
                        .append("\nactual:\n")
                        .append(out.stripTrailing())
                        .append('\n');
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("the example does not print what the page shows (compared without: "
                    + DocOutput.rules()
                    + block.varying().map(v -> "; numbers in " + v).orElse("") + ")" + failures);
        }
    }

    /** One command line in bash, after the block's {@code source} lines; what it printed. */
    private static String bash(Session s, String command) throws IOException, InterruptedException {
        String script = String.join("\n", s.shell) + "\n" + command + "\n";
        Path out = Files.createTempFile(base, "out", ".txt");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script)
                .directory(s.home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("USER", System.getProperty("user.name"));
        // bin/_sluice-java's class path where the commands run without the native front end.
        pb.environment().put("SLUICE_CLASSPATH", System.getProperty("java.class.path"));
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("$ " + command + " did not finish in 60 s:\n" + Files.readString(out));
        }
        String text = Files.readString(out);
        Files.delete(out);
        return text;
    }
}
