package dev.sluice.cli.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Commands run against a {@link FakeController}, for each test of a class:
 *
 * <pre>{@code
 * @RegisterExtension
 * final CommandFixture cli = new CommandFixture(req -> ...).withEnv("PATH", "/usr/bin:/bin");
 * }</pre>
 *
 * Before each test: a fresh directory with a slurm.conf naming the controller's port ({@link
 * TestingInvocations#confFor}), a fresh controller answering with {@code handler} and recording
 * what it is sent, and an environment pointing at it that the test may change. After it, the
 * controller is closed and the directory removed.
 */
public final class CommandFixture implements BeforeEachCallback, AfterEachCallback {
    private final Function<ClientRequest, ClientResponse> handler;
    private final boolean cluster;
    private final Map<String, String> extraEnv = new LinkedHashMap<>();
    private Path dir;
    private FakeController controller;
    private FakeCluster fakeCluster;
    private Map<String, String> env;

    public CommandFixture(Function<ClientRequest, ClientResponse> handler) {
        this(handler, false);
    }

    private CommandFixture(Function<ClientRequest, ClientResponse> handler, boolean cluster) {
        this.handler = handler;
        this.cluster = cluster;
    }

    /** Commands against a fresh {@link FakeCluster} (srun's and salloc's allocations and steps) for each test. */
    public static CommandFixture onAFakeCluster() {
        return new CommandFixture(null, true);
    }

    /** A controller that takes every request as the submission of batch job {@code jobId}. */
    public static CommandFixture acceptingBatchJobs(int jobId) {
        return new CommandFixture(req -> ClientResponse.newBuilder()
                .setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(jobId))
                .build());
    }

    /** Adds {@code name=value} to every test's environment. */
    public CommandFixture withEnv(String name, String value) {
        extraEnv.put(name, value);
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("sluice-cli-test-");
        if (cluster) {
            fakeCluster = new FakeCluster();
            controller = fakeCluster.controller();
        } else {
            controller = new FakeController(handler);
        }
        env = new HashMap<>(TestingInvocations.confFor(dir, controller.port()));
        env.putAll(extraEnv);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        controller.close();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The test's working directory, where slurm.conf is. */
    public Path dir() {
        return dir;
    }

    public FakeController controller() {
        return controller;
    }

    /** The test's cluster, with {@link #onAFakeCluster}. */
    public FakeCluster cluster() {
        if (fakeCluster == null) {
            throw new IllegalStateException("not on a FakeCluster");
        }
        return fakeCluster;
    }

    /** The commands' environment; changes last until the test ends. */
    public Map<String, String> env() {
        return env;
    }

    /** The job the test submitted, its only request. */
    public JobSpec submitted() {
        assertThat(controller.requests()).hasSize(1);
        return controller.requests().get(0).getSubmitBatchJob().getSpec();
    }

    /** {@code command args...} in {@link #dir()}, with nothing on standard input. */
    public Output run(Command command, String... args) {
        return runWithInput(command, "", args);
    }

    public Output runWithInput(Command command, String stdin, String... args) {
        return TestingInvocations.run(command, TestingInvocations.invocation(dir, env, stdin, args));
    }

    /** {@code command args...} as {@link #run}, its clock at {@code now}. */
    public Output run(Instant now, Command command, String... args) {
        return TestingInvocations.run(command, TestingInvocations.invocation(now, dir, env, "", args));
    }

    /** {@code command args...} at {@code now}, standalone and through the agent ({@link TestingInvocations#runBothWays}). */
    public Output runBothWays(Command command, Instant now, String... args) {
        return TestingInvocations.runBothWays(command, now, dir, env, "", args);
    }
}
