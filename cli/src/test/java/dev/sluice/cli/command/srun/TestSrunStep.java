package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.CreateStepRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * srun inside an allocation (SLURM_JOB_ID=42): what each step option puts in the step request,
 * and what the tasks' output, exits and files look like. The tasks run for real, as local
 * processes of a fake node ({@code FakeStepNode}); the expected lines are real srun 22.05's on
 * the same command lines.
 */
class TestSrunStep {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.onAFakeCluster()
            .withEnv("PATH", "/usr/bin:/bin")
            .withEnv("SLURM_JOB_ID", "42")
            .withEnv("SLURM_NTASKS", "1");

    private Output srun(String... args) {
        return cli.run(new SrunCommand(), args);
    }

    private CreateStepRequest step() {
        return cli.cluster().step().orElseThrow();
    }

    @Test
    void shapeNameDirectoryAndEnvironmentGoToTheStep() throws IOException {
        Files.createDirectory(cli.dir().resolve("sub"));
        cli.env().put("KEEP_OUT", "x");
        Output o = srun(
                "-n2",
                "-c",
                "1",
                "--gres=gpu:1",
                "--exclusive",
                "-J",
                "nm",
                "-D",
                "sub",
                "--export=NONE,FOO=bar",
                "/bin/true");
        assertThat(o).isEqualTo(new Output(0, "", ""));
        CreateStepRequest s = step();
        assertThat(s.getNumTasks()).isEqualTo(2);
        assertThat(s.getCpusPerTask()).isEqualTo(1);
        assertThat(s.getGres()).isEqualTo("gpu:1");
        assertThat(s.getExclusive()).isTrue();
        assertThat(s.getName()).isEqualTo("nm");
        assertThat(s.getWorkDir()).isEqualTo(cli.dir().resolve("sub").toString());
        assertThat(s.getEnvironmentMap())
                .containsEntry("FOO", "bar")
                .containsEntry("SLURM_JOB_ID", "42")
                .doesNotContainKey("KEEP_OUT");
        assertThat(cli.cluster().submitted()).isEmpty();
    }

    @Test
    void exactHoldsCpusAsAnExclusiveStepOverlapAndWholeDoNot() {
        srun("--exact", "/bin/true");
        assertThat(step().getExclusive()).isTrue();
        assertThat(srun("--exclusive", "--overlap", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: error: --exclusive and --overlap are mutually exclusive\n"));
        assertThat(srun("--exact", "--whole", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: error: --exact and --whole are mutually exclusive.\n"));
    }

    @Test
    void tasksPerNodeTimesNodesIsTheTaskCount() {
        srun("-N1", "--ntasks-per-node=3", "/bin/true");
        assertThat(step().getNumTasks()).isEqualTo(3);
    }

    @Test
    void cpuBindIsWarnedAboutWithoutABindingTaskPluginAndTheStepRuns() {
        // Snakemake's `srun -n1 --cpu-bind=q`: real srun 22.05 with TaskPlugin=task/none.
        Output o = srun("-n1", "--cpu-bind=q", "/bin/echo", "hi");
        assertThat(o).isEqualTo(new Output(0, "hi\n", "srun: cluster configuration lacks support for cpu binding\n"));
        assertThat(srun("--cpu-bind=bogus", "/bin/true")).isEqualTo(new Output(1, "", """
                        srun: cluster configuration lacks support for cpu binding
                        srun: error: unrecognized --cpu-bind argument "bogus"
                        srun: fatal: Failed to parse --cpu-bind= values.
                        """));
    }

    @Test
    void outputAndErrorFilesFollowSlurmsPatternsAndOpenMode() throws IOException {
        Files.writeString(cli.dir().resolve("err.txt"), "old\n");
        Output o = srun(
                "-n2",
                "-u",
                "-o",
                "out-%j-%s-%t-%%.txt",
                "-e",
                "err.txt",
                "--open-mode=append",
                "/bin/sh",
                "-c",
                "echo o$SLURM_PROCID; echo e >&2");
        assertThat(o).isEqualTo(new Output(0, "", ""));
        assertThat(Files.readString(cli.dir().resolve("out-42-0-0-%.txt"))).isEqualTo("o0\n");
        assertThat(Files.readString(cli.dir().resolve("out-42-0-1-%.txt"))).isEqualTo("o1\n");
        assertThat(Files.readString(cli.dir().resolve("err.txt"))).isEqualTo("old\ne\ne\n");
    }

    @Test
    void withoutMinusEStandardErrorGoesToTheOutputFileLabelledWithMinusL() throws IOException {
        // Real srun 22.05: `srun -o f1.txt -l -n2 sh -c 'echo out$SLURM_PROCID; echo err >&2'`.
        Files.writeString(cli.dir().resolve("f1.txt"), "truncated\n");
        srun("-o", "f1.txt", "-l", "-n2", "/bin/sh", "-c", "echo out$SLURM_PROCID; echo err >&2");
        assertThat(Files.readString(cli.dir().resolve("f1.txt"))
                        .lines()
                        .sorted()
                        .toList())
                .containsExactly("0: err", "0: out0", "1: err", "1: out1");
    }

    @Test
    void anOutputFileThatCannotBeMadeStopsTheStep() {
        // Real srun 22.05: `srun -o /nonexistent/x.txt -n1 echo hi`.
        assertThat(srun("-o", "/nonexistent/x.txt", "-n1", "/bin/sh", "-c", "echo hi; exec sleep 20"))
                .isEqualTo(new Output(1, "", "srun: error: Could not open stdout file: No such file or directory\n"));
    }

    @Test
    void noneDiscardsAndATaskNumberKeepsOnlyThatTask() {
        assertThat(srun("-o", "none", "/bin/sh", "-c", "echo out; echo err >&2"))
                .isEqualTo(new Output(0, "", ""));
        assertThat(srun("-o", "1", "-n2", "/bin/sh", "-c", "echo out$SLURM_PROCID; echo err$SLURM_PROCID >&2"))
                .isEqualTo(new Output(0, "out1\n", "err1\n"));
    }

    @Test
    void killOnBadExitTerminatesTheOtherTasks() {
        // Real srun 22.05: `srun -n2 -K sh -c '...exit 3...; sleep 5'` exits 143 with these lines
        // (and slurmstepd's own CANCELLED line, which is the node's).
        Output o = srun("-n2", "-K", "/bin/sh", "-c", "if [ $SLURM_PROCID = 1 ]; then exit 3; fi; exec sleep 20");
        assertThat(o.err()).isEqualTo("""
                        srun: error: n1: task 1: Exited with exit code 3
                        srun: launch/slurm: _step_signal: Terminating StepId=42.0
                        srun: error: n1: task 0: Terminated
                        srun: Force Terminated StepId=42.0
                        """);
        assertThat(o.exitCode()).isEqualTo(143);
        assertThat(cli.cluster().node().signals()).containsExactly(15);
        assertThat(srun("-n2", "-K0", "/bin/sh", "-c", "exit $SLURM_PROCID").exitCode())
                .isEqualTo(1);
    }

    @Test
    void waitKillsWhatIsStillRunningThatLongAfterTheFirstExit() {
        // Real srun 22.05: `srun -n2 -W 1 sh -c '...'` exits 137.
        Output o = srun("-n2", "-W", "1", "/bin/sh", "-c", "if [ $SLURM_PROCID = 1 ]; then exit 0; fi; exec sleep 20");
        assertThat(o.err()).isEqualTo("""
                        srun: First task exited 1s ago
                        srun: StepId=42.0 task 0: running
                        srun: StepId=42.0 task 1: exited
                        srun: launch/slurm: _step_signal: Terminating StepId=42.0
                        srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                        srun: error: n1: task 0: Killed
                        """);
        assertThat(o.exitCode()).isEqualTo(137);
    }

    @Test
    void multiProgRunsEachTasksLine() throws IOException {
        // Real srun 22.05 `srun -n4 -l --multi-prog mp.conf | sort` printed exactly this.
        Files.writeString(
                cli.dir().resolve("mp.conf"), "# comment\n0 echo zero %t %o\n1-2 echo rest %t %o\n*  echo star\n");
        Output o = srun("-n4", "-l", "--multi-prog", "mp.conf");
        assertThat(o.out().lines().sorted().toList())
                .containsExactly("0: zero 0 0", "1: rest 1 0", "2: rest 2 1", "3: star");
        assertThat(o.exitCode()).isZero();
        Files.writeString(cli.dir().resolve("mp2.conf"), "0 echo a\n");
        assertThat(srun("-n2", "--multi-prog", "mp2.conf"))
                .isEqualTo(new Output(
                        1, "", "srun: error: Configuration file mp2.conf invalid, no record for task id 1\n"));
        Files.writeString(cli.dir().resolve("mp3.conf"), "0-1 echo a\n");
        assertThat(srun("-n1", "--multi-prog", "mp3.conf").err())
                .isEqualTo("srun: error: Invalid task id, 1 >= ntasks\n"
                        + "srun: error: Line 1 of configuration file mp3.conf invalid\n");
        // compat 300: a task field that is not a number or range.
        Files.writeString(cli.dir().resolve("mp4.conf"), "x echo bad\n");
        assertThat(srun("-n1", "--multi-prog", "mp4.conf"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "srun: error: Invalid task range specification (x)\n"
                                + "srun: error: Line 1 of configuration file mp4.conf invalid\n"));
        assertThat(srun("--multi-prog", "nope.conf"))
                .isEqualTo(new Output(1, "", "srun: error: Could not open multi_prog config file nope.conf\n"));
    }

    @Test
    void prologAndEpilogRunHereAroundTheStep() throws IOException {
        Path log = cli.dir().resolve("log");
        Files.writeString(cli.dir().resolve("pro.sh"), "#!/bin/sh\necho pro \"$@\" >> " + log + "\n");
        cli.dir().resolve("pro.sh").toFile().setExecutable(true);
        assertThat(srun("--prolog=./pro.sh", "--epilog=./pro.sh", "/bin/echo", "x"))
                .isEqualTo(new Output(0, "x\n", ""));
        assertThat(Files.readString(log)).isEqualTo("pro /bin/echo x\npro /bin/echo x\n");
        // Real srun 22.05's words; it still started the step (a race), Sluice does not.
        assertThat(srun("--prolog=/bin/false", "/bin/echo", "x"))
                .isEqualTo(new Output(1, "", "srun: error: srun prolog failed rc = 1. Aborting step.\n"));
        assertThat(srun("--epilog=/bin/false", "/bin/echo", "x"))
                .isEqualTo(new Output(0, "x\n", "srun: error: srun epilog failed status=1\n"));
    }

    @Test
    void inputComesFromTheFileForEveryTask() throws IOException {
        Files.writeString(cli.dir().resolve("in-0.txt"), "zero\n");
        Files.writeString(cli.dir().resolve("in-1.txt"), "one\n");
        Output o = srun("-n2", "-l", "-i", "in-%t.txt", "/bin/cat");
        assertThat(o.out().lines().sorted().toList()).containsExactly("0: zero", "1: one");
        assertThat(srun("-i", "none", "/bin/cat")).isEqualTo(new Output(0, "", ""));
        assertThat(InputRedirect.shellWord("a b-%j.%t-%u-%%", "root", "x"))
                .isEqualTo("'a b-'\"${SLURM_JOB_ID}\"'.'\"${SLURM_PROCID}\"'-root-%'");
    }
}
