package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.salloc.SallocCommand;
import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * srun's and salloc's command lines against real Slurm 22.05's: the same long options in the
 * same table order (read off the real commands: every {@code --x} prefix), glibc's messages,
 * exit status 255 for a bad line, Slurm's own help texts.
 */
class TestSrunCommandLine {
    /** Real srun 22.05's long options, in its getopt table's order (`srun --a=1`, `--b=1`, ...). */
    static final String SLURM_SRUN = """
            accel-bind account acctg-freq bcast bcast-exclude begin bb bbf cluster-constraint chdir cluster
            clusters comment compress container context contiguous constraint core-spec cores-per-socket
            cpu-bind cpu_bind cpu-freq cpus-per-gpu cpus-per-task deadline debugger-test delay-boot
            dependency disable-status distribution epilog error exact exclude exclusive export
            extra-node-info gid gpu-bind gpu-freq gpus gpus-per-node gpus-per-socket gpus-per-task gres
            gres-flags help het-group hint hold immediate input interactive jobid job-name kill-on-bad-exit
            label licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu mincpus mpi
            msg-timeout multi-prog network nice no-allocate no-kill nodefile nodelist nodes ntasks
            ntasks-per-core ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres open-mode
            output overcommit overlap oversubscribe pack-group partition power prefer preserve-env priority
            profile prolog propagate pty qos quiet quit-on-interrupt reboot relative reservation resv-ports
            send-libs signal slurmd-debug sockets-per-node spread-job switches threads task-epilog
            task-prolog tasks-per-node test-only thread-spec threads-per-core time time-min tmp uid
            unbuffered use-min-nodes usage verbose version wait wckey whole x11
            """;

    /** Real salloc 22.05's. */
    static final String SLURM_SALLOC = """
            account acctg-freq begin bell bb bbf cluster-constraint chdir cluster clusters comment container
            context contiguous constraint core-spec cores-per-socket cpu-freq cpus-per-gpu cpus-per-task
            deadline delay-boot dependency distribution exclude exclusive extra-node-info get-user-env gid
            gpu-bind gpu-freq gpus gpus-per-node gpus-per-socket gpus-per-task gres gres-flags help hint
            hold immediate job-name kill-command licenses mail-type mail-user mcs-label mem mem-bind
            mem-per-cpu mem-per-gpu mincpus network nice no-bell no-kill no-shell nodefile nodelist nodes
            ntasks ntasks-per-core ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres
            overcommit oversubscribe partition power prefer priority profile qos quiet reboot reservation
            signal sockets-per-node spread-job switches tasks-per-node thread-spec threads-per-core time
            time-min tmp uid use-min-nodes usage verbose version wait-all-nodes wckey x11
            """;

    @RegisterExtension
    final CommandFixture cli = CommandFixture.onAFakeCluster();

    private Output srun(String... args) {
        return cli.run(new SrunCommand(), args);
    }

    private Output salloc(String... args) {
        return cli.run(new SallocCommand(), args);
    }

    @Test
    void everyOptionOfSlurmsSrunIsTakenInSlurmsOrder() {
        List<String> ours =
                SrunOptions.TABLE.specs().stream().map(OptionSpec::longName).toList();
        assertThat(ours)
                .containsExactlyElementsOf(Arrays.asList(SLURM_SRUN.strip().split("\\s+")));
        assertThat(SrunOptions.TABLE.specs()).allMatch(OptionSpec::supported);
        assertThat(ours).hasSize(131);
    }

    @Test
    void everyOptionOfSlurmsSallocIsTakenInSlurmsOrder() throws Exception {
        var table = Class.forName("dev.sluice.cli.command.salloc.SallocOptions").getDeclaredField("TABLE");
        table.setAccessible(true);
        List<OptionSpec> specs = ((dev.sluice.cli.getopt.OptionTable) table.get(null)).specs();
        assertThat(specs.stream().map(OptionSpec::longName).toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SALLOC.strip().split("\\s+")));
        assertThat(specs).allMatch(OptionSpec::supported).hasSize(95);
    }

    @Test
    void badLinesGetGlibcsMessageSlurmsHintAndStatus255() {
        // Real srun/salloc 22.05 on the same lines.
        assertThat(srun("--bogus", "true"))
                .isEqualTo(new Output(
                        255, "", "srun: unrecognized option '--bogus'\nTry \"srun --help\" for more information\n"));
        assertThat(srun("-f", "true").err())
                .isEqualTo("srun: invalid option -- 'f'\nTry \"srun --help\" for more information\n");
        assertThat(srun("--ntasks").err()).startsWith("srun: option '--ntasks' requires an argument\n");
        assertThat(srun("--mpi-combine=no", "true").err()).startsWith("srun: unrecognized option '--mpi-combine=no'\n");
        assertThat(srun("--cpu=1", "true").err())
                .startsWith("srun: option '--cpu=1' is ambiguous; possibilities: '--cpu-bind' '--cpu-freq'"
                        + " '--cpus-per-gpu' '--cpus-per-task'\n");
        assertThat(srun("--ntasks-per=1", "true").err())
                .startsWith("srun: option '--ntasks-per=1' is ambiguous; possibilities: '--ntasks-per-core'"
                        + " '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'\n");
        assertThat(salloc("--bogus", "true").exitCode()).isEqualTo(255);
        assertThat(salloc("--n=1").err())
                .startsWith("salloc: option '--n=1' is ambiguous; possibilities: '--network' '--nice' '--no-bell'"
                        + " '--no-kill' '--no-shell' '--nodefile' '--nodelist' '--nodes' '--ntasks'"
                        + " '--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket'"
                        + " '--ntasks-per-tres'\n");
        assertThat(cli.cluster().requests()).isEmpty();
    }

    @Test
    void helpAndUsageAreSlurmsTexts() throws IOException {
        Output help = srun("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .startsWith("Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] [ : [OPTIONS(N)...]]"
                        + " executable(N) [args(N)...]\n\nParallel run options:\n")
                .contains("      --cpu-freq=min[-max[:gov]] requested cpu frequency (and governor)\n")
                .endsWith("Other options:\n  -V, --version               output version information and exit\n\n");
        assertThat(srun("--usage").out()).startsWith("Usage: srun [-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]\n");
        assertThat(srun("-h").out()).isEqualTo(help.out());
        assertThat(salloc("--help").out())
                .startsWith("Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)]] [command(0) [args(0)...]]\n");
        assertThat(salloc("--usage").out())
                .startsWith("Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]\n")
                .endsWith("              [command [args...]]\n");
        assertThat(cli.cluster().requests()).isEmpty();
    }

    @Test
    void abbreviationsAndEverySpellingReachTheSameOption() {
        for (List<String> line : List.of(
                List.of("--cpus-per-task=3"),
                List.of("--cpus-per-task", "3"),
                List.of("-c3"),
                List.of("-c", "3"),
                List.of("--cpus-per-t=3"))) {
            String[] args = java.util.stream.Stream.concat(
                            line.stream(), java.util.stream.Stream.of("--test-only", "true"))
                    .toArray(String[]::new);
            assertThat(srun(args).exitCode()).as("%s", line).isZero();
        }
        assertThat(cli.cluster().requests())
                .hasSize(5)
                .allMatch(r -> r.getSubmitBatchJob().getSpec().getCpusPerTask() == 3);
    }

    @Test
    void noCommandIsSlurmsFatalLine() {
        assertThat(srun("-n1")).isEqualTo(new Output(1, "", "srun: fatal: No command given to execute.\n"));
    }

    @Test
    void verboseListsTheOptionsTakenAsSlurmDoes() {
        // Real srun 22.05 -v (same options): the listing, then the run.
        Output o = srun(
                "-v",
                "-n1",
                "--mpi=none",
                "-K",
                "--open-mode=append",
                "-o",
                "o.txt",
                "--distribution=cyclic",
                "--test-only",
                "true");
        assertThat(o.err()).startsWith("""
                        srun: defined options
                        srun: -------------------- --------------------
                        srun: distribution        : cyclic
                        srun: kill-on-bad-exit    : 1
                        srun: mpi                 : none
                        srun: ntasks              : 1
                        srun: open-mode           : a
                        srun: output              : o.txt
                        srun: test-only           : set
                        srun: verbose             : 1
                        srun: -------------------- --------------------
                        srun: end of defined options
                        srun: Job 42 to start at\s""");
        assertThat(srun("-Q", "-v", "true"))
                .isEqualTo(new Output(1, "", "srun: error: don't specify both --verbose (-v) and --quiet (-Q)\n"));
    }
}
