package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.agent.AgentFrames;
import dev.sluice.cli.testing.AgentHarness;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code sbatch --test-only} and {@code sbatch -W}. Expected texts and exit statuses are real
 * Slurm 22.05's, observed side by side on this machine (2026-11-29):
 * {@code sbatch: Job 26 to start at 2026-11-29T14:38:39 using 1 processors on nodes n1 in
 * partition gpu} on standard error (exit 0, nothing with -Q), {@code allocation failure:
 * Requested node configuration is not available} for {@code -N9} on 2 nodes (exit 1);
 * {@code sbatch -W --wrap "exit 3"} printed {@code Submitted batch job 20} and exited 3, a job
 * killed by SIGKILL made it exit 1.
 */
class TestSbatchTestOnlyAndWait {
    private static final Instant NOW = Instant.parse("2026-11-29T14:00:00Z");

    /** The job's states as successive GetJobs calls see them; the last one stays. */
    private final Deque<JobInfo> states = new ArrayDeque<>();

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(this::answer);

    private ClientResponse answer(ClientRequest req) {
        return switch (req.getBodyCase()) {
            case SUBMIT_BATCH_JOB -> {
                var submit = req.getSubmitBatchJob();
                if (submit.getSpec().getPartition().equals("nosuch")) {
                    yield ClientResponse.newBuilder()
                            .setError(SlurmError.newBuilder()
                                    .setCode(ErrorCode.INVALID_PARTITION_NAME.number())
                                    .setMessage(ErrorCode.INVALID_PARTITION_NAME.text())
                                    .setUserMessage("invalid partition specified: nosuch"))
                            .build();
                }
                if (submit.getSpec().getMinNodes() == 9) {
                    yield ClientResponse.newBuilder()
                            .setError(SlurmError.newBuilder()
                                    .setCode(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.number())
                                    .setMessage(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text()))
                            .build();
                }
                SubmitBatchJobResponse.Builder r =
                        SubmitBatchJobResponse.newBuilder().setJobId(26);
                if (submit.getTestOnly()) {
                    r.setStartTime(Instant.parse("2026-11-29T14:38:39Z").getEpochSecond())
                            .setCpus(1)
                            .setNodeList("n1")
                            .setPartition("gpu");
                }
                yield ClientResponse.newBuilder().setSubmitBatchJob(r).build();
            }
            case GET_JOBS -> {
                JobInfo now = states.size() > 1 ? states.poll() : states.peek();
                yield ClientResponse.newBuilder()
                        .setGetJobs(GetJobsResponse.newBuilder().addJobs(now))
                        .build();
            }
            default -> throw new IllegalStateException("unexpected " + req.getBodyCase());
        };
    }

    private static JobInfo job(JobState state, int waitStatus) {
        return JobInfo.newBuilder()
                .setJobId(26)
                .setState(state)
                .setExitStatus(waitStatus)
                .build();
    }

    private Output sbatch(String... args) {
        return cli.runBothWays(new SbatchCommand(), NOW, args);
    }

    @Test
    void testOnlyPrintsWhereAndWhenAndSubmitsNothing() {
        assertThat(sbatch("--test-only", "--wrap", "true"))
                .isEqualTo(new Output(
                        0,
                        "",
                        "sbatch: Job 26 to start at 2026-11-29T14:38:39 using 1 processors on nodes n1 in partition"
                                + " gpu\n"));
        assertThat(cli.controller().requests().getFirst().getSubmitBatchJob().getTestOnly())
                .isTrue();
        assertThat(sbatch("-Q", "--test-only", "--wrap", "true")).isEqualTo(new Output(0, "", ""));
        assertThat(sbatch("--test-only", "-N9", "--wrap", "true"))
                .isEqualTo(new Output(1, "", "allocation failure: Requested node configuration is not available\n"));
        // The controller's own line comes first (Slurm 22.05, compat 035).
        assertThat(sbatch("--test-only", "-p", "nosuch", "--wrap", "true"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: invalid partition specified: nosuch\n"
                                + "allocation failure: Invalid partition name specified\n"));
    }

    @Test
    void waitExitsWithTheJobsExitCode() {
        states.add(job(JobState.PENDING, 0));
        states.add(job(JobState.RUNNING, 0));
        states.add(job(JobState.FAILED, 3 << 8));
        Output standalone = cli.run(NOW, new SbatchCommand(), "-W", "--wrap", "exit 3");
        assertThat(standalone).isEqualTo(new Output(3, "Submitted batch job 26\n", ""));
        assertThat(cli.controller().requests().stream().filter(ClientRequest::hasGetJobs))
                .hasSize(3);
        assertThat(cli.controller().requests().getFirst().getSubmitBatchJob().getTestOnly())
                .isFalse();

        states.clear();
        states.add(job(JobState.FAILED, 9));
        assertThat(sbatch("--wait", "--parsable", "--wrap", "kill -9 $$")).isEqualTo(new Output(1, "26\n", ""));
        states.clear();
        states.add(job(JobState.COMPLETED, 0));
        assertThat(sbatch("-W", "--wrap", "true")).isEqualTo(new Output(0, "Submitted batch job 26\n", ""));
    }

    @Test
    void exitCodeOfAWaitStatus() {
        assertThat(SbatchWait.exitCode(0)).isZero();
        assertThat(SbatchWait.exitCode(3 << 8)).isEqualTo(3);
        assertThat(SbatchWait.exitCode(255 << 8)).isEqualTo(255);
        assertThat(SbatchWait.exitCode(15)).isEqualTo(1);
        assertThat(SbatchWait.exitCode(9)).isEqualTo(1);
    }

    /** Ctrl-C through the agent stops the wait (status 130) and leaves the job alone. */
    @Test
    void ctrlCThroughTheAgentStopsWaiting() throws IOException {
        states.add(job(JobState.RUNNING, 0));
        try (AgentHarness agent = new AgentHarness(
                        cli.dir(),
                        dev.sluice.cli.Commands::byName,
                        TestingInvocations.USERS,
                        Clock.fixed(NOW, ZoneOffset.UTC));
                SocketChannel ch = agent.connect()) {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch)));
            byte[] run = AgentFrames.encodeRun(new AgentFrames.Run(
                    AgentHarness.argv("sbatch", "-W", "--wrap", "sleep 600"),
                    cli.env(),
                    cli.dir().toString()));
            AgentFrames.write(out, AgentFrames.RUN, run, 0, run.length);
            out.flush();
            AgentFrames.Frame first = AgentHarness.readAnswering(in, out, cli.dir());
            assertThat(first.type()).isEqualTo(AgentFrames.STDOUT);
            assertThat(new String(first.payload(), StandardCharsets.UTF_8)).isEqualTo("Submitted batch job 26\n");
            byte[] sigint = AgentFrames.exitPayload(2);
            AgentFrames.write(out, AgentFrames.SIGNAL, sigint, 0, sigint.length);
            out.flush();
            int exit;
            while (true) {
                AgentFrames.Frame f = AgentHarness.readAnswering(in, out, cli.dir());
                if (f.type() == AgentFrames.EXIT) {
                    exit = AgentFrames.intOf(f.payload());
                    break;
                }
            }
            assertThat(exit).isEqualTo(130);
        }
        assertThat(cli.controller().requests().stream().filter(ClientRequest::hasSignalJob))
                .isEmpty();
    }
}
