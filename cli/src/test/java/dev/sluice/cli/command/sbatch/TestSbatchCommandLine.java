package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sbatch's command line against real Slurm 22.05's (TaskPlugin=task/none,
 * AllowSpecResourcesUsage=No, no licenses, reservations or node features): the same long options
 * in the same table order, every one taken; Slurm's texts, warnings, refusals and exit statuses,
 * and -v's listing. Every expected line was read off real sbatch on the same line.
 */
class TestSbatchCommandLine {
    /** Real sbatch 22.05's long options, in its getopt table's order (`sbatch --a=1 --zzzz`, `--b=1`, ...). */
    static final String SLURM_SBATCH = """
            account acctg-freq array batch begin bb bbf cluster-constraint chdir cluster clusters comment
            container context contiguous constraint core-spec cores-per-socket cpu-freq cpus-per-gpu
            cpus-per-task deadline delay-boot dependency distribution error exclude exclusive export
            export-file extra-node-info get-user-env gid gpu-bind gpu-freq gpus gpus-per-node
            gpus-per-socket gpus-per-task gres gres-flags help hint hold ignore-pbs input job-name
            kill-on-invalid-dep licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu
            mincpus network nice no-kill no-requeue nodefile nodelist nodes ntasks ntasks-per-core
            ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres open-mode output overcommit
            oversubscribe parsable partition power prefer priority profile propagate qos quiet reboot
            requeue reservation signal sockets-per-node spread-job switches tasks-per-node test-only
            thread-spec threads-per-core time time-min tmp uid use-min-nodes usage verbose version wait
            wait-all-nodes wckey wrap
            """;

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

    @Test
    void everyOptionOfSlurmsSbatchIsTakenInSlurmsOrder() {
        List<String> ours =
                SbatchOptions.TABLE.specs().stream().map(OptionSpec::longName).toList();
        assertThat(ours)
                .containsExactlyElementsOf(Arrays.asList(SLURM_SBATCH.strip().split("\\s+")));
        assertThat(SbatchOptions.TABLE.specs()).allMatch(OptionSpec::supported);
        assertThat(ours).hasSize(106);
        // Real sbatch's letters: `sbatch -X --zzzz` for every X; the others are "invalid option".
        String letters = SbatchOptions.TABLE.specs().stream()
                .filter(s -> s.shortName() != 0)
                .map(s -> String.valueOf(s.shortName()))
                .sorted()
                .collect(java.util.stream.Collectors.joining());
        assertThat(letters).isEqualTo("ABCDFGHJLMNOQSVWabcdehikmnopqstvwx");
        assertThat(sbatch("-l", "--wrap", "true").err()).startsWith("sbatch: invalid option -- 'l'\n");
    }

    @Test
    void helpAndUsageAreSlurmsTexts() {
        Output help = sbatch("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .startsWith("Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n\n"
                        + "Parallel run options:\n  -a, --array=indexes         job array index values\n")
                .contains("      --ignore-pbs            Ignore #PBS and #BSUB options in the batch script\n")
                .endsWith("Other options:\n  -V, --version               output version information and exit\n\n");
        assertThat(sbatch("-h").out()).isEqualTo(help.out());
        assertThat(sbatch("--usage").out())
                .startsWith("Usage: sbatch [-N nnodes] [-n ntasks]\n")
                .endsWith("              [--mem-per-gpu=MB]\n              executable [args...]\n");
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void everySpellingAndAbbreviationReachesTheSameOption() {
        for (List<String> line : List.of(
                List.of("--cpus-per-task=3"),
                List.of("--cpus-per-task", "3"),
                List.of("-c3"),
                List.of("-c", "3"),
                List.of("--cpus-per-t=3"))) {
            assertThat(wrapped(line.toArray(String[]::new)).exitCode())
                    .as("%s", line)
                    .isZero();
        }
        assertThat(cli.controller().requests())
                .hasSize(5)
                .allMatch(r -> r.getSubmitBatchJob().getSpec().getCpusPerTask() == 3);
        // Options only recorded are found by their prefixes too (unique in sbatch's table).
        assertThat(wrapped("--ig", "--use-m", "--spr", "--wait-all=1", "--time-m", "5"))
                .isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
    }

    @Test
    void verboseListsTheOptionsTakenAsSlurmDoes() {
        // Real sbatch 22.05 -v on the same line: the listing, then (there) the controller's answer.
        Output o = wrapped(
                "-v",
                "--test-only",
                "--acctg-freq=task=30",
                "--bb=foo",
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
                "--ignore-pbs",
                "--mcs-label=foo",
                "--mem=2048",
                "--mem-bind=local",
                "--mincpus=1",
                "--network=foo",
                "--ntasks-per-core=1",
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
                "--tmp=1024",
                "--uid=root",
                "--use-min-nodes",
                "--wait-all-nodes=1",
                "--wckey=w",
                "--parsable");
        assertThat(o.err()).startsWith("""
                        sbatch: defined options
                        sbatch: -------------------- --------------------
                        sbatch: acctg-freq          : task=30
                        sbatch: bb                  : foo
                        sbatch: cluster-constraint  : foo
                        sbatch: container           : /tmp
                        sbatch: context             : foo
                        sbatch: contiguous          : set
                        sbatch: cores-per-socket    : 1
                        sbatch: cpu-freq            : Low-High:Performance
                        sbatch: deadline            : 2030-01-01T10:00:00
                        sbatch: delay-boot          : 01:30:00
                        sbatch: distribution        : block:cyclic
                        sbatch: get-user-env        : 5L
                        sbatch: gid                 : 0
                        sbatch: gpu-bind            : closest
                        sbatch: gpu-freq            : low
                        sbatch: ignore-pbs          : set
                        sbatch: mcs-label           : foo
                        sbatch: mem                 : 2G
                        sbatch: mem-bind            : local
                        sbatch: mincpus             : 1
                        sbatch: network             : foo
                        sbatch: no-requeue          : no-requeue
                        sbatch: ntasks-per-core     : 1
                        sbatch: ntasks-per-socket   : 1
                        sbatch: overcommit          : set
                        sbatch: oversubscribe       : oversubscribe
                        sbatch: parsable            : set
                        sbatch: power               : LEVEL
                        sbatch: priority            : -3
                        sbatch: profile             : Energy,Task
                        sbatch: propagate           : CORE
                        sbatch: reboot              : set
                        sbatch: signal              : RB:KILL@5
                        sbatch: sockets-per-node    : 1
                        sbatch: spread-job          : set
                        sbatch: switches            : 2@00:01:30
                        sbatch: test-only           : set
                        sbatch: time-min            : 00:05:00
                        sbatch: tmp                 : 1G
                        sbatch: uid                 : 0
                        sbatch: use-min-nodes       : set
                        sbatch: verbose             : 1
                        sbatch: wait-all-nodes      : 1
                        sbatch: wckey               : w
                        sbatch: wrap                : true
                        sbatch: -------------------- --------------------
                        sbatch: end of defined options
                        """);
        assertThat(o.exitCode()).isZero();
        // Input variables stand for their options, the command line wins; --hint is dropped, with
        // Slurm's line, when an option it would set is given too.
        cli.env().put("SBATCH_PROFILE", "task");
        cli.env().put("SBATCH_IGNORE_PBS", "1");
        cli.env().put("SBATCH_SIGNAL", "USR1");
        cli.env().put("SBATCH_POWER", "level");
        cli.env().put("SBATCH_DELAY_BOOT", "5");
        assertThat(wrapped("-v", "--test-only", "--delay-boot=7").err()).startsWith("""
                        sbatch: defined options
                        sbatch: -------------------- --------------------
                        sbatch: delay-boot          : 00:07:00
                        sbatch: ignore-pbs          : set
                        sbatch: power               : LEVEL
                        sbatch: profile             : Task
                        sbatch: signal              : USR1
                        sbatch: test-only           : set
                        sbatch: verbose             : 1
                        sbatch: wrap                : true
                        sbatch: -------------------- --------------------
                        sbatch: end of defined options
                        """);
        cli.env().keySet().removeIf(k -> k.startsWith("SBATCH_"));
        assertThat(wrapped("-v", "--test-only", "--hint=nomultithread", "--ntasks-per-core=1")
                        .err())
                .startsWith("""
                        sbatch: Following options are mutually exclusive with --hint: --ntasks-per-core, \
                        --threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring --hint.
                        sbatch: defined options
                        sbatch: -------------------- --------------------
                        sbatch: ntasks-per-core     : 1
                        sbatch: test-only           : set
                        sbatch: verbose             : 1
                        sbatch: wrap                : true
                        sbatch: -------------------- --------------------
                        sbatch: end of defined options
                        """);
    }

    @Test
    void verboseListsSbatchsPathsAbsoluteAsSlurmKeepsThem() throws IOException {
        Files.writeString(cli.dir().resolve("env.txt"), "A=1\n");
        // Real sbatch 22.05 in a directory D on the same line, D being the test's directory here.
        assertThat(wrapped(
                                "-v",
                                "--test-only",
                                "-D",
                                "sub",
                                "-o",
                                "o.txt",
                                "-e",
                                "none",
                                "-i",
                                "in.txt",
                                "--mail-type=ALL",
                                "--export-file=env.txt",
                                "-W")
                        .err())
                .startsWith("""
                        sbatch: defined options
                        sbatch: -------------------- --------------------
                        sbatch: chdir               : D/sub
                        sbatch: error               : /dev/null
                        sbatch: export-file         : env.txt
                        sbatch: input               : D/sub/in.txt
                        sbatch: mail-type           : INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT
                        sbatch: output              : D/sub/o.txt
                        sbatch: test-only           : set
                        sbatch: verbose             : 1
                        sbatch: wait                : set
                        sbatch: wrap                : true
                        sbatch: -------------------- --------------------
                        sbatch: end of defined options
                        sbatch: Getting environment variables from env.txt
                        """.replace("D/", cli.dir() + "/"));
    }

    @Test
    void verboseAndQuietAreMutuallyExclusive() {
        assertThat(wrapped("-v", "-Q"))
                .isEqualTo(new Output(1, "", "sbatch: error: don't specify both --verbose (-v) and --quiet (-Q)\n"));
    }
}
