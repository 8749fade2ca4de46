package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Jobs that have ended, against real Slurm 22.05 (golden files {@code c-*.txt}). In
 * {@code /tmp/gold/c} at 09:08:30:
 *
 * <pre>
 *   sbatch -J ok --wrap "true"              # 20: COMPLETED
 *   sbatch -J bad --wrap "exit 3"           # 21: FAILED, NonZeroExitCode, ExitCode=3:0
 *   sbatch -J killed --wrap "sleep 100"     # 22: scancel'ed while running, ExitCode=0:15
 *   sbatch -H -J pendkill --wrap "true"     # 23: scancel'ed while held, never ran
 *   sbatch -J sig --wrap 'kill -9 $$'       # 24: FAILED, JobLaunchFailure, ExitCode=0:9
 * </pre>
 *
 * started 09:08:32, the cancels at 09:08:34, outputs taken at 09:08:37.
 */
class TestGoldenFinishedJobs {
    private static final Instant NOW = Instant.parse("2026-11-29T09:08:37Z");
    private static final long SUBMIT = Instant.parse("2026-11-29T09:08:30Z").getEpochSecond();
    private static final long START = SUBMIT + 2;
    private static final long CANCEL = SUBMIT + 4;

    private static JobInfo.Builder ran(int id, String name, JobState state, int priority, long end) {
        return Fixtures.job(id, Fixtures.wrapSpec().setName(name).setWorkDir("/tmp/gold/c"), state)
                .setWorkDir("/tmp/gold/c")
                .setSubmitTime(SUBMIT)
                .setEligibleTime(SUBMIT)
                .setAccrueTime(SUBMIT)
                .setPriority(priority)
                .setStartTime(START)
                .setLastSchedEval(START)
                .setEndTime(end)
                .setNodeList("n1")
                .setBatchHost("n1")
                .setNumNodes(1)
                .setNumCpus(1)
                .setAllocTres("cpu=1,node=1,billing=1");
    }

    static List<JobInfo> jobs() {
        return List.of(
                ran(20, "ok", JobState.COMPLETED, (int) 4294901751L, START).build(),
                ran(21, "bad", JobState.FAILED, (int) 4294901750L, START)
                        .setReason("NonZeroExitCode")
                        .setExitStatus(3 << 8)
                        .build(),
                ran(22, "killed", JobState.CANCELLED, (int) 4294901749L, CANCEL)
                        .setExitStatus(15)
                        .build(),
                Fixtures.job(
                                23,
                                Fixtures.wrapSpec()
                                        .setName("pendkill")
                                        .setHold(true)
                                        .setWorkDir("/tmp/gold/c"),
                                JobState.CANCELLED)
                        .setWorkDir("/tmp/gold/c")
                        .setSubmitTime(SUBMIT)
                        .setEligibleTime(0)
                        .setAccrueTime(0)
                        .setLastSchedEval(SUBMIT)
                        .setStartTime(CANCEL)
                        .setEndTime(CANCEL)
                        .setReason("JobHeldUser")
                        .setNumCpus(1)
                        .setReqTres("cpu=1,mem=8000M,node=1,billing=1")
                        .build(),
                ran(24, "sig", JobState.FAILED, (int) 4294901748L, START)
                        .setReason("JobLaunchFailure")
                        .setExitStatus(9)
                        .build());
    }

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> Answers.jobs(jobs()));

    private String stdout(Command command, String... args) {
        TestingInvocations.Output o = cli.runBothWays(command, NOW, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    @Test
    void squeueAllStates() throws IOException {
        // squeue -t all -n ok,bad,killed,pendkill,sig
        assertThat(stdout(new SqueueCommand(), "-t", "all", "-n", "ok,bad,killed,pendkill,sig"))
                .isEqualTo(golden("c-squeue-all.txt"));
        // squeue -t all -n ... -o "%i %T %M %L %S %e %R %r"
        assertThat(stdout(
                        new SqueueCommand(),
                        "-t",
                        "all",
                        "-n",
                        "ok,bad,killed,pendkill,sig",
                        "-o",
                        "%i %T %M %L %S %e %R %r"))
                .isEqualTo(golden("c-squeue-times.txt"));
    }

    @Test
    void defaultListingLeavesEndedJobsOut() {
        assertThat(stdout(new SqueueCommand(), "-h")).isEmpty();
    }

    @Test
    void scontrolExitCodesAndNeverRunJobs() throws IOException {
        // for n in ok bad killed pendkill sig; do scontrol show job <id of n>; done
        StringBuilder all = new StringBuilder();
        for (String id : new String[] {"20", "21", "22", "23", "24"}) {
            all.append(stdout(new ScontrolCommand(), "show", "job", id));
        }
        // Job 23, cancelled while it waited, was last looked at by the pass its submission
        // triggered (09:08:30), in Slurm and in Sluice.
        String expected =
                golden("c-scontrol-jobs.txt").replace("AllocNode:Sid=localhost:7981", "AllocNode:Sid=localhost:0");
        assertThat(all.toString()).isEqualTo(expected);
    }
}
