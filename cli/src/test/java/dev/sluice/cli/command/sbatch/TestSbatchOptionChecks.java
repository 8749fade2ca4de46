package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sbatch options Sluice has no feature for, on a cluster configured as real Slurm's was
 * (TaskPlugin=task/none, AllowSpecResourcesUsage=No, no licenses, reservations or node
 * features): Slurm's warning where the configuration makes one moot, the controller's refusal of
 * what this cluster has none of, Slurm's refusal of a value it would refuse, and otherwise taken
 * and recorded. Every expected line was read off real sbatch 22.05 on the same line.
 */
class TestSbatchOptionChecks {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.acceptingBatchJobs(42).withEnv("PATH", "/usr/bin:/bin");

    private Output sbatch(String... args) {
        return cli.run(new SbatchCommand(), args);
    }

    /** The line, then {@code --wrap true}. */
    private Output wrapped(String... args) {
        return sbatch(
                Stream.concat(Arrays.stream(args), Stream.of("--wrap", "true")).toArray(String[]::new));
    }

    private Output asAlice(String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                cli.env(),
                cli.dir(),
                new ByteArrayInputStream(new byte[0]),
                new Caller(1000, 1000, "alice", "localhost"),
                Clock.fixed(Fixtures.LATER_NOW, ZoneOffset.UTC),
                TestingInvocations.USERS);
        return TestingInvocations.run(new SbatchCommand(), inv);
    }

    @Test
    void recordedOptionsAreTakenSilentlyAndTheJobIsSubmitted() throws IOException {
        Files.writeString(cli.dir().resolve("bbf.txt"), "n1\n");
        Files.writeString(cli.dir().resolve("env.txt"), "FROM_FILE=1\n");
        // Real sbatch 22.05 took this very line silently (--test-only: only its "Job N to start" line).
        Output o = wrapped(
                "--acctg-freq=task=30",
                "--bbf=bbf.txt",
                "--cluster-constraint=foo",
                "--container=/tmp",
                "--context=foo",
                "--contiguous",
                "--cores-per-socket=1",
                "--cpu-freq=low-high:performance",
                "--deadline=2030-01-01T10:00",
                "--delay-boot=90",
                "-m",
                "block:cyclic",
                "--get-user-env=5L",
                "--gid=root",
                "--gpu-bind=closest",
                "--gpu-freq=low",
                "--hint=compute_bound",
                "--ignore-pbs",
                "--mcs-label=foo",
                "--mem=2048",
                "--mem-bind=local",
                "--mincpus=1",
                "--network=foo",
                "--ntasks-per-socket=1",
                "-O",
                "-s",
                "--power=level",
                "--priority=TOP",
                "--profile=task,energy",
                "--propagate=CORE",
                "--reboot",
                "--no-requeue",
                "--signal=BR:9@5",
                "--sockets-per-node=1",
                "--spread-job",
                "--switches=2@1:30",
                "--time-min=5",
                "--uid=root",
                "--use-min-nodes",
                "--wait-all-nodes=1",
                "--wckey=w",
                "--threads-per-core=1",
                "-B",
                "*",
                "--export-file=env.txt",
                "--kill-on-invalid-dep=yes");
        assertThat(o).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        JobSpec spec = cli.submitted();
        assertThat(spec.getMemPerNodeMb()).isEqualTo(2048);
        assertThat(spec.getRequeueSet()).isTrue();
        assertThat(spec.getRequeue()).isFalse();
        assertThat(spec.getKillOnInvalidDep()).isTrue();
        assertThat(spec.getWarnSignal()).isEqualTo(9);
        assertThat(spec.getEnvironmentMap()).containsKey("FROM_FILE");
    }

    private record Case(String option, int status, String err) {}

    @Test
    void valuesSlurmRefusesAreRefusedWithItsWordsAndStatus() {
        // Real sbatch 22.05 (as root) on `sbatch OPTION --wrap true`.
        for (Case c : List.of(
                new Case("--uid=4242", 255, "sbatch: error: Invalid --uid specification\n"),
                new Case("--gid=4242", 255, "sbatch: error: Invalid --gid specification\n"),
                new Case("--priority=-5", 255, "sbatch: error: Priority must be >= 0\n"),
                new Case("--priority=4294967295", 255, "sbatch: error: Priority must be < 4294967294\n"),
                new Case("--get-user-env=5X", 255, "sbatch: error: Invalid --get-user-env specification\n"),
                new Case("--delay-boot=abc", 255, "sbatch: error: Invalid --delay-boot specification\n"),
                new Case("--switches=abc", 1, "sbatch: error: Invalid numeric value \"abc\" for --switches.\n"),
                new Case("--wait-all-nodes=3", 255, "sbatch: error: Invalid --wait-all-nodes specification\n"),
                new Case("--tmp=abc", 255, "sbatch: error: Invalid --tmp specification\n"),
                new Case("--hint=foo", 1, "sbatch: error: unrecognized --hint argument \"foo\", see --hint=help\n"),
                new Case(
                        "--propagate=FOO",
                        1,
                        "sbatch: error: Bad rlimit name: FOO\nsbatch: error: --propagate=FOO is not valid.\n"),
                new Case("--profile=bogus", 255, "sbatch: error: invalid --profile=bogus option\n"),
                new Case("-mbogus", 255, "sbatch: error: Invalid --distribution specification\n"),
                new Case(
                        "--cpu-freq=bogus",
                        255,
                        "sbatch: error: unrecognized --cpu-freq argument \"bogus\"\n"
                                + "sbatch: error: Invalid --cpu-freq argument\n"),
                new Case(
                        "--gpus-per-socket=1",
                        1,
                        "sbatch: error: --gpus-per-socket option requires --sockets-per-node specification\n"
                                + "sbatch: error: Invalid generic resource (gres) specification\n"),
                new Case(
                        "--ntasks-per-gpu=1",
                        1,
                        "sbatch: error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU"
                                + " specification or a node/ntask specification\n"
                                + "sbatch: error: Invalid generic resource (gres) specification\n"),
                new Case("--acctg-freq=bogus", 255, "sbatch: error: Invalid --acctg-freq specification: bogus\n"),
                new Case("--mem-bind=bogus", 255, "sbatch: error: unrecognized --mem-bind argument \"bogus\"\n"),
                new Case("--gpu-bind=bogus", 255, "sbatch: error: Invalid --gpu-bind argument: gpu:bogus\n"),
                new Case("-Bx", 1, "sbatch: error: Invalid numeric value \"x\" for first arg of -B.\n"),
                new Case("--mincpus=0", 1, "sbatch: error: Invalid numeric value \"0\" for --mincpus.\n"),
                new Case(
                        "--cores-per-socket=x",
                        1,
                        "sbatch: error: Invalid numeric value \"x\" for --cores-per-socket.\n"),
                new Case("--bbf=/nonexistent", 1, "sbatch: error: Invalid --bbf specification\n"))) {
            assertThat(wrapped(c.option())).as(c.option()).isEqualTo(new Output(c.status(), "", c.err()));
        }
        // =help prints Slurm's list on standard output (real sbatch: 255 for --mem-bind, 1 for --hint).
        Output memBindHelp = wrapped("--mem-bind=help");
        assertThat(memBindHelp.out())
                .startsWith("Memory bind options:\n    --mem-bind=         Bind memory to"
                        + " locality domains (ldom)\n        nosort          avoid sorting pages at startup\n");
        assertThat(memBindHelp.exitCode()).isEqualTo(255);
        Output hintHelp = wrapped("--hint=help");
        assertThat(hintHelp.out())
                .startsWith("Application hint options:\n    --hint=             Bind tasks"
                        + " according to application hints\n        compute_bound   use all cores in each socket\n");
        assertThat(hintHelp.exitCode()).isEqualTo(1);
        assertThat(wrapped("--bb=foo", "--bbf=/nonexistent"))
                .isEqualTo(new Output(1, "", "sbatch: error: Cannot specify both --burst-buffer and --bbf\n"));
        // With a GPU, a node or a task count, --ntasks-per-gpu is taken (real sbatch: -n2, -N1, --gpus=1).
        assertThat(wrapped("--ntasks-per-gpu=1", "-n2").exitCode()).isZero();
        assertThat(cli.controller().requests()).hasSize(1);
    }

    @Test
    void anOptionsOwnParserSpeaksBeforeTheScriptIsReadTheirChecksTogetherAfter() {
        // Real sbatch 22.05 with a script that cannot be opened.
        assertThat(sbatch("-c", "0", "/nonexistent"))
                .isEqualTo(new Output(1, "", "sbatch: error: Invalid numeric value \"0\" for --cpus-per-task.\n"));
        assertThat(sbatch("--time=abc", "/nonexistent"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --time specification\n"));
        assertThat(sbatch("--deadline=xyz", "/nonexistent").exitCode()).isEqualTo(255);
        assertThat(sbatch("--wait-all-nodes=3", "/nonexistent"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --wait-all-nodes specification\n"));
        assertThat(sbatch("--propagate=FOO", "/nonexistent"))
                .isEqualTo(new Output(1, "", "sbatch: error: Unable to open file /nonexistent\n"));
        assertThat(sbatch("--hint=foo", "/nonexistent"))
                .isEqualTo(new Output(1, "", "sbatch: error: Unable to open file /nonexistent\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void onlyRootMaySubmitAsAnotherUserOrGroup() {
        // Real sbatch 22.05 as an ordinary user, whatever the value.
        assertThat(asAlice("--uid=0", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: --uid only permitted by root user\n"));
        assertThat(asAlice("--gid=0", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: --gid only permitted by root user\n"));
        assertThat(asAlice("--uid=nosuch", "--wrap", "true").err())
                .isEqualTo("sbatch: error: --uid only permitted by root user\n");
        assertThat(cli.controller().requests()).isEmpty();
        // Root names a user or group by name or number.
        assertThat(wrapped("--uid=alice", "--gid=1000").exitCode()).isZero();
    }

    @Test
    void whatTheConfigurationMakesMootIsWarnedAbout() {
        // Real sbatch 22.05 with AllowSpecResourcesUsage=No: the line, and the job is submitted.
        assertThat(wrapped("--core-spec=1"))
                .isEqualTo(new Output(
                        0,
                        "Submitted batch job 42\n",
                        "sbatch: error: Ignoring -S since it's not allowed by configuration"
                                + " (AllowSpecResourcesUsage = No)\n"));
        assertThat(wrapped("--thread-spec=1").err())
                .isEqualTo("sbatch: error: Ignoring --thread-spec since it's not allowed by configuration"
                        + " (AllowSpecResourcesUsage = No)\n");
        // sbatch reads its command line twice: the power line comes twice.
        assertThat(wrapped("--power=bogus").err())
                .isEqualTo("sbatch: error: Ignoring unrecognized power option (bogus)\n"
                        + "sbatch: error: Ignoring unrecognized power option (bogus)\n");
        // Unlike srun and salloc, sbatch says nothing of cpu binding for --threads-per-core, but
        // at -v what it does about it, after the -S line.
        assertThat(wrapped("--threads-per-core=1")).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        assertThat(wrapped("-v", "-S", "1", "--threads-per-core=1").err())
                .startsWith("sbatch: error: Ignoring -S since it's not allowed by configuration"
                        + " (AllowSpecResourcesUsage = No)\n"
                        + "sbatch: Setting --cpu-bind=threads as a default of --threads-per-core use\n"
                        + "sbatch: defined options\n");
    }

    @Test
    void aReservationTravelsToTheControllerWhichJudgesIt() {
        assertThat(wrapped("--reservation=maint")).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        assertThat(cli.submitted().getReservation()).isEqualTo("maint");
    }

    @Test
    void licensesTravelToTheControllerWhichJudgesThem() {
        assertThat(wrapped("-L", "foo:2,bar")).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        assertThat(cli.submitted().getLicenses()).isEqualTo("foo:2,bar");
    }

    @Test
    void whatThisClusterHasNoneOfIsRefusedWithTheControllersWords() {
        assertThat(wrapped("--batch=foo"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: Batch job submission failed: Job --batch option is invalid or not a subset"
                                + " of --constraints\n"));
        assertThat(wrapped("--test-only", "--batch="))
                .isEqualTo(new Output(
                        1, "", "allocation failure: Job --batch option is invalid or not a subset of --constraints\n"));
        assertThat(cli.controller().requests()).isEmpty();
        // sbatch(1): --batch names features of --constraint; whether they exist is the controller's business.
        assertThat(wrapped("-C", "haswell|knl", "--batch=haswell").exitCode()).isZero();
        assertThat(cli.submitted().getConstraint()).isEqualTo("haswell|knl");
    }

    @Test
    void directivesTakeEveryOptionToo() throws IOException {
        Path script = cli.dir().resolve("job.sh");
        Files.writeString(
                script, "#!/bin/sh\n#SBATCH --ignore-pbs\n#SBATCH --spread-job --priority=5\n#SBATCH -S 1\ntrue\n");
        Output o = sbatch(script.toString());
        assertThat(o.exitCode()).isZero();
        assertThat(o.err())
                .isEqualTo("sbatch: error: Ignoring -S since it's not allowed by configuration"
                        + " (AllowSpecResourcesUsage = No)\n");
        List<String> args = new ArrayList<>(List.of("-v", script.toString()));
        assertThat(sbatch(args.toArray(String[]::new)).err()).contains("sbatch: priority            : 5\n");
    }
}
