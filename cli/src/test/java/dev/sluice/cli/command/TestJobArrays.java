package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Job arrays in squeue and scontrol, against real Slurm 22.05 after
 * {@code sbatch --array=1-4%2 -J arr --wrap "sleep 300"} (job 11; tasks 1 and 2 ran as jobs 12
 * and 13, tasks 3-4 waited with JobArrayTaskLimit), two seconds after the start. The
 * expected texts below are that run's output.
 */
class TestJobArrays {
    private static final long START = Instant.parse("2026-11-29T08:47:02Z").getEpochSecond();

    private static JobSpec.Builder spec() {
        return Fixtures.wrapSpec().setName("arr").setArray("1-4%2");
    }

    static List<JobInfo> jobs() {
        // All tasks share one priority in Slurm; the running tasks get distinct ones here only
        // so that their order does not depend on how ties fall.
        JobInfo pending = Fixtures.job(11, spec(), JobState.PENDING)
                .setArrayJobId(11)
                .setArrayTaskId(-1)
                .setArrayTaskStr("3-4%2")
                .setDisplayId("11_[3-4%2]")
                .setReason("JobArrayTaskLimit")
                .setPriority((int) 4294901755L)
                .setNumCpus(1)
                .build();
        JobInfo task1 = running(12, 1, (int) 4294901755L);
        JobInfo task2 = running(13, 2, (int) 4294901754L);
        return List.of(task2, pending, task1);
    }

    private static JobInfo running(int id, int task, int priority) {
        return Fixtures.job(id, spec(), JobState.RUNNING)
                .setArrayJobId(11)
                .setArrayTaskId(task)
                .setDisplayId("11_" + task)
                .setPriority(priority)
                .setStartTime(START)
                .setNodeList("n1")
                .setBatchHost("n1")
                .setNumNodes(1)
                .setNumCpus(1)
                .build();
    }

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> Answers.jobs(jobs()));

    private String stdout(Command command, String... args) {
        TestingInvocations.Output o = cli.run(Instant.parse("2026-11-29T08:47:04Z"), command, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    @Test
    void squeueShowsPendingTasksAsOneLine() {
        assertThat(stdout(new SqueueCommand())).isEqualTo("""
                                     JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)
                                11_[3-4%2]       gpu      arr     root PD       0:00      1 (JobArrayTaskLimit)
                                      11_1       gpu      arr     root  R       0:02      1 n1
                                      11_2       gpu      arr     root  R       0:02      1 n1
                        """);
    }

    @Test
    void squeueArrayOptionListsEveryTask() {
        assertThat(stdout(new SqueueCommand(), "-r", "-h")).isEqualTo("""
                                      11_3       gpu      arr     root PD       0:00      1 (JobArrayTaskLimit)
                                      11_4       gpu      arr     root PD       0:00      1 (JobArrayTaskLimit)
                                      11_1       gpu      arr     root  R       0:02      1 n1
                                      11_2       gpu      arr     root  R       0:02      1 n1
                        """);
    }

    @Test
    void squeueArrayUniqueKeepsPendingTasksOnOneLine() {
        // Real squeue 22.05 printed a held array as `J_[1-3]` with --array-unique too (compat 302).
        assertThat(stdout(new SqueueCommand(), "--array-unique", "-h")).isEqualTo("""
                                11_[3-4%2]       gpu      arr     root PD       0:00      1 (JobArrayTaskLimit)
                                      11_1       gpu      arr     root  R       0:02      1 n1
                                      11_2       gpu      arr     root  R       0:02      1 n1
                        """);
    }

    @Test
    void arrayIdLetters() {
        assertThat(stdout(new SqueueCommand(), "-o", "%i|%A|%F|%K|%j")).isEqualTo("""
                        JOBID|JOBID|ARRAY_JOB_ID|ARRAY_TASK_ID|NAME
                        11_[3-4%2]|11|11|3-4%2|arr
                        11_1|12|11|1|arr
                        11_2|13|11|2|arr
                        """);
    }

    @Test
    void jobIdsSelectArraysAndTasks() {
        assertThat(stdout(new SqueueCommand(), "-h", "-o", "%i", "-j", "11")).isEqualTo("11_[3-4%2]\n11_1\n11_2\n");
        assertThat(stdout(new SqueueCommand(), "-h", "-o", "%i", "-j", "11_1")).isEqualTo("11_1\n");
        // As Slurm's squeue: the pending record narrowed to the task named.
        assertThat(stdout(new SqueueCommand(), "-h", "-o", "%i", "-j", "11_4")).isEqualTo("11_4\n");
        assertThat(stdout(new SqueueCommand(), "-h", "-o", "%i", "-j", "11_3,11_4"))
                .isEqualTo("11_[3-4]\n");
    }

    @Test
    void scontrolNamesTheArray() {
        String out = stdout(new ScontrolCommand(), "show", "job");
        assertThat(out.lines().filter(l -> l.startsWith("JobId=")))
                .containsExactly(
                        "JobId=11 ArrayJobId=11 ArrayTaskId=3-4%2 ArrayTaskThrottle=2 JobName=arr",
                        "JobId=12 ArrayJobId=11 ArrayTaskId=1 ArrayTaskThrottle=2 JobName=arr",
                        "JobId=13 ArrayJobId=11 ArrayTaskId=2 ArrayTaskThrottle=2 JobName=arr");
        // One job id: that record first, then the array's others, the one split off last first
        // (real scontrol 22.05 loads the one job so: compat 295).
        assertThat(stdout(new ScontrolCommand(), "show", "job", "11").lines().filter(l -> l.startsWith("JobId=")))
                .extracting(l -> l.substring(0, l.indexOf(' ')))
                .containsExactly("JobId=11", "JobId=13", "JobId=12");
        assertThat(stdout(new ScontrolCommand(), "show", "job", "11_1")).startsWith("JobId=12 ArrayJobId=11 ");
        // sbatch(1): an array task's default output file is slurm-%A_%a.out
        assertThat(stdout(new ScontrolCommand(), "show", "job", "11_1"))
                .contains("   StdOut=/tmp/gold/slurm-11_1.out\n");
    }
}
