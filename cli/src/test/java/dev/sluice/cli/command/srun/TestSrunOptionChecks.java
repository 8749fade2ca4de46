package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The srun options Sluice has no feature for: Slurm's warning where this configuration makes
 * one moot (TaskPlugin=task/none, AllowSpecResourcesUsage=No, no MPI plugins), Slurm's refusal
 * of a value it would refuse, and otherwise taken and recorded (they change nothing; -v lists
 * them). Every expected line is real srun 22.05's on the same option and value, on a cluster
 * configured as this test's.
 */
class TestSrunOptionChecks {
    @RegisterExtension
    final CommandFixture cli =
            CommandFixture.onAFakeCluster().withEnv("PATH", "/usr/bin:/bin").withEnv("SLURM_JOB_ID", "42");

    private Output srun(String... args) {
        List<String> line = new ArrayList<>(List.of(args));
        line.add("/bin/true");
        return cli.run(new SrunCommand(), line.toArray(String[]::new));
    }

    @Test
    void recordedOptionsAreTakenSilentlyAndTheStepRuns() {
        // Real srun 22.05 inside `salloc -N1` took this very line silently and ran the step.
        Output o = srun(
                "--accel-bind=g",
                "--acctg-freq=task=30",
                "--bcast",
                "--bcast-exclude=NONE",
                "--bb=foo",
                "--cluster-constraint=foo",
                "--compress=lz4",
                "--container=/tmp",
                "--context=foo",
                "--contiguous",
                "--cores-per-socket=1",
                "--deadline=now+1hour",
                "--delay-boot=1",
                "--disable-status",
                "-m",
                "block:cyclic",
                "--gid=0",
                "--gpu-bind=closest",
                "--gpu-freq=high",
                "--hint=compute_bound",
                "-i",
                "/dev/null",
                "--mcs-label=foo",
                "--mem-bind=local",
                "--mem-per-cpu=100",
                "--mincpus=1",
                "--mpi=none",
                "--msg-timeout=10",
                "--network=foo",
                "--ntasks-per-core=1",
                "--ntasks-per-socket=1",
                "-O",
                "-s",
                "--power=level",
                "--prefer=foo",
                "-E",
                "--priority=10",
                "--profile=task,energy",
                "--propagate=RLIMIT_CORE,NOFILE",
                "--quit-on-interrupt",
                "--reboot",
                "-r0",
                "--resv-ports",
                "--send-libs=no",
                "--slurmd-debug=1",
                "--sockets-per-node=1",
                "--spread-job",
                "--switches=1",
                "-T2",
                "--task-epilog=/bin/true",
                "--task-prolog=/bin/true",
                "--time-min=1",
                "--tmp=1",
                "--uid=0",
                "--use-min-nodes",
                "--wckey=foo",
                "--cpu-freq=high",
                "-X",
                "--tasks-per-node=1",
                "--cluster=test",
                "--licenses=foo",
                "--reservation=r");
        assertThat(o).isEqualTo(new Output(0, "", ""));
        assertThat(cli.cluster().step()).isPresent();
        // Hidden options of Slurm's own (a debugger's and salloc's interactive step), taken too.
        assertThat(srun("--debugger-test", "--interactive", "--container=/tmp")).isEqualTo(new Output(0, "", ""));
    }

    @Test
    void anAllocationIsNeverAHeterogeneousJob() {
        // Real srun 22.05 inside a plain `salloc -N1`.
        assertThat(srun("--het-group=0"))
                .isEqualTo(new Output(
                        1, "", "srun: error: No directives to start application on any available hetjob components\n"));
        assertThat(srun("--pack-group=1"))
                .isEqualTo(new Output(
                        1, "", "srun: error: Requested het-group offset exceeds highest hetjob index (1 > 0)\n"));
        assertThat(srun("--gpus-per-task=1", "--ntasks-per-gpu=1"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "srun: fatal: --gpus-per-task is mutually exclusive with --ntasks-per-gpu and"
                                + " SLURM_NTASKS_PER_GPU\n"));
        assertThat(cli.cluster().requests()).isEmpty();
        cli.env().remove("SLURM_JOB_ID");
        assertThat(srun("--het-group=1").exitCode()).isZero();
    }

    @Test
    void whatTheConfigurationMakesMootIsWarnedAboutAndTheStepRuns() {
        assertThat(srun("-S", "1"))
                .isEqualTo(
                        new Output(
                                0,
                                "",
                                "srun: error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)\n"));
        assertThat(srun("--thread-spec=1").err())
                .isEqualTo("srun: error: Ignoring --thread-spec since it's not allowed by configuration"
                        + " (AllowSpecResourcesUsage = No)\n");
        // --threads-per-core asks for thread binding.
        assertThat(srun("--threads-per-core=1").err())
                .isEqualTo("srun: cluster configuration lacks support for cpu binding\n");
        // At -v, Slurm's line on what it does first (real srun 22.05, same line).
        assertThat(srun("-v", "-S", "1", "--threads-per-core=1").err())
                .startsWith("srun: error: Ignoring -S since it's not allowed by configuration"
                        + " (AllowSpecResourcesUsage = No)\n"
                        + "srun: Setting --cpu-bind=threads as a default of --threads-per-core use\n"
                        + "srun: cluster configuration lacks support for cpu binding\n"
                        + "srun: defined options\n");
        assertThat(srun("--power=bogus").err()).isEqualTo("srun: error: Ignoring unrecognized power option (bogus)\n");
        assertThat(srun("--compress=bogus").err())
                .isEqualTo("srun: error: Compression type 'bogus' unknown, disabling compression support.\n");
        assertThat(srun("--pty").err())
                .isEqualTo("srun: error: Not using a pseudo-terminal, disregarding --pty option\n");
        assertThat(cli.cluster().requests().stream()
                        .filter(r -> r.hasCreateStep())
                        .count())
                .isEqualTo(7);
    }

    @Test
    void aBindingTaskPluginTakesCpuBindWithoutAWord() throws IOException {
        Path conf = cli.dir().resolve("slurm.conf");
        Files.writeString(conf, Files.readString(conf) + "TaskPlugin=task/affinity\n");
        assertThat(srun("--cpu-bind=cores")).isEqualTo(new Output(0, "", ""));
    }

    @Test
    void mpiPluginsOtherThanNoneAreNotThere() {
        assertThat(srun("--mpi=pmix")).isEqualTo(new Output(1, "", """
                        srun: error: Couldn't find the specified plugin name for mpi/pmix looking at all files
                        srun: error: cannot find mpi plugin for mpi/pmix
                        srun: error: MPI: Cannot create context for mpi/pmix
                        srun: error: MPI: Unable to load any plugin
                        srun: error: Invalid MPI type 'pmix', --mpi=list for acceptable types
                        """));
        assertThat(srun("--mpi=list")).isEqualTo(new Output(0, "MPI plugin types are...\n\tnone\n", ""));
    }

    @Test
    void valuesSlurmRefusesAreRefusedWithItsWordsAndStatus() {
        record Case(String option, int status, String err) {}
        for (Case c : List.of(
                new Case("--accel-bind=x", 255, "srun: error: Invalid --accel-bind specification\n"),
                new Case("--profile=bogus", 255, "srun: error: invalid --profile=bogus option\n"),
                new Case("--send-libs=bogus", 255, "srun: error: Invalid --send-libs specification\n"),
                new Case("--distribution=bogus", 255, "srun: error: Invalid --distribution specification\n"),
                new Case("--mem-bind=bogus", 255, "srun: error: unrecognized --mem-bind argument \"bogus\"\n"),
                new Case("--gpu-bind=bogus", 255, "srun: error: Invalid --gpu-bind argument: gpu:bogus\n"),
                new Case("--acctg-freq=bogus", 255, "srun: error: Invalid --acctg-freq specification: bogus\n"),
                new Case("--delay-boot=bogus", 255, "srun: error: Invalid --delay-boot specification\n"),
                new Case("--time-min=bogus", 255, "srun: error: Invalid --time-min specification\n"),
                new Case("--tmp=bogus", 255, "srun: error: Invalid --tmp specification\n"),
                new Case("--deadline=bogus", 255, "srun: error: Invalid --deadline specification\n"),
                new Case(
                        "--cpu-freq=bogus",
                        255,
                        "srun: error: unrecognized --cpu-freq argument \"bogus\"\nsrun: error: Invalid --cpu-freq argument\n"),
                new Case(
                        "--cpu-freq=low:bogus",
                        255,
                        "srun: error: gov on cpu-frec (bogus) illegal without max\nsrun: error: Invalid --cpu-freq argument\n"),
                new Case("--hint=bogus", 1, "srun: error: unrecognized --hint argument \"bogus\", see --hint=help\n"),
                new Case(
                        "--propagate=core",
                        1,
                        "srun: error: Bad rlimit name: core\nsrun: error: --propagate=core is not valid.\n"),
                new Case(
                        "--het-group=x",
                        1,
                        "srun: error: _parse_single_range: Invalid range: `x'\nsrun: error: Invalid --het-group value: x\n"),
                new Case("--mincpus=0", 1, "srun: error: Invalid numeric value \"0\" for --mincpus.\n"),
                new Case(
                        "--sockets-per-node=x",
                        1,
                        "srun: error: Invalid numeric value \"x\" for --sockets-per-node.\n"),
                new Case("--ntasks-per-core=0", 1, "srun: error: Invalid numeric value \"0\" for --ntasks-per-core.\n"),
                new Case("-Bx", 1, "srun: error: Invalid numeric value \"x\" for first arg of -B.\n"),
                new Case("--switches=x", 1, "srun: error: Invalid numeric value \"x\" for --switches.\n"),
                new Case("-Wx", 1, "srun: error: Invalid numeric value \"x\" for --wait.\n"),
                new Case("-Tx", 1, "srun: error: Invalid numeric value \"x\" for --threads.\n"),
                new Case("-rx", 1, "srun: error: Invalid numeric value \"x\" for --relative.\n"),
                new Case(
                        "--kill-on-bad-exit=x",
                        1,
                        "srun: error: Invalid numeric value \"x\" for --kill-on-bad-exit.\n"),
                new Case("--x11", 255, "srun: error: No DISPLAY variable set, cannot setup x11 forwarding.\n"),
                new Case("-Z", 1, "srun: error: must specify a node list with -Z, --no-allocate.\n"),
                new Case(
                        "--gpus-per-socket=1",
                        1,
                        "srun: error: --gpus-per-socket option requires --sockets-per-node specification\n"
                                + "srun: error: Invalid generic resource (gres) specification\n"),
                new Case("--bbf=/nonexistent", 1, "srun: error: Invalid --bbf specification\n"))) {
            assertThat(srun(c.option())).as(c.option()).isEqualTo(new Output(c.status(), "", c.err()));
        }
        assertThat(srun("--pty", "-o", "x"))
                .isEqualTo(new Output(1, "", "srun: error: --error/--input/--output are incompatible with --pty\n"));
        assertThat(srun("-r0", "-w", "n1"))
                .isEqualTo(new Output(
                        1, "", "srun: error: -r,--relative not allowed with -w,--nodelist or -x,--exclude.\n"));
        assertThat(srun("--cpus-per-gpu=1", "-c1").err())
                .isEqualTo("srun: error: --cpus-per-gpu is mutually exclusive with --cpus-per-task\n"
                        + "srun: error: Invalid generic resource (gres) specification\n");
        assertThat(srun("--hint=help").out()).startsWith("Application hint options:\n");
        assertThat(cli.cluster().requests()).isEmpty();
    }

    @Test
    void inputVariablesStandForOptionsAndTheCommandLineWins() {
        cli.env().put("SLURM_OPEN_MODE", "bogus");
        assertThat(srun()).isEqualTo(new Output(255, "", "srun: error: Invalid --open-mode specification\n"));
        assertThat(srun("--open-mode=append")).isEqualTo(new Output(0, "", ""));
        cli.env().put("SLURM_CPU_BIND", "q");
        assertThat(srun("--open-mode=t").err())
                .isEqualTo("srun: cluster configuration lacks support for cpu binding\n");
    }
}
