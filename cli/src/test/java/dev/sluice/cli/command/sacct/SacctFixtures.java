package dev.sluice.cli.command.sacct;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobState;
import java.util.List;

/**
 * The four jobs behind the sacct golden files, as real Slurm 22.05 recorded them (cluster
 * anchor, one node n1, run as root on 2026-11-29 from 09:00:14 UTC):
 * {@code sbatch --wrap "sleep 2"}, {@code sbatch -J longnamedjob_abcdefghijkl --wrap "exit 3"},
 * {@code sbatch -t 1 --wrap "sleep 300"} (timed out), {@code sbatch --wrap "sleep 100"} then
 * {@code scancel 4}.
 */
final class SacctFixtures {
    static final long T0 = 1_795_942_814L;
    static final long NOW = 1_795_943_100L;

    private SacctFixtures() {}

    static List<AccountedJob> jobs() {
        return List.of(
                job(1, "wrap", JobState.COMPLETED, 0, 2, 60, JobState.COMPLETED, 0),
                job(2, "longnamedjob_abcdefghijkl", JobState.FAILED, 3 << 8, 0, 60, JobState.FAILED, 3 << 8),
                job(3, "wrap", JobState.TIMEOUT, 0, 77, 1, JobState.CANCELLED, 15),
                job(4, "wrap", JobState.CANCELLED, 0, 4, 60, JobState.CANCELLED, 15).toBuilder()
                        .setCancelledBy(0)
                        .build());
    }

    /**
     * {@code sbatch --array=1-4%2 --wrap "sleep 3"} (job 6): tasks 1-3 split off as jobs 7-9,
     * task 4 kept the array's own id. As dbd returns them for {@code -j 6}, in task order.
     */
    static List<AccountedJob> array() {
        return List.of(task(7, 1), task(8, 2), task(9, 3), task(6, 4));
    }

    /**
     * Job 5000504 of the differential suite's cluster (two 4-CPU nodes, CR_Core, recorded
     * 2026-12-03 16:50 UTC): {@code sbatch steps.sh}, a script of {@code srun -n1 -J first true},
     * {@code srun -n2 printenv SLURM_STEP_ID} and {@code srun -n1 -J sleeper sleep 30}, cancelled
     * by root during the third step.
     */
    static AccountedJob steps() {
        long submit = 1_796_316_651L;
        long start = submit + 2;
        long end = start + 1;
        return AccountedJob.newBuilder()
                .setCluster("anchor")
                .setJobId(5000504)
                .setName("steps.sh")
                .setUserName("root")
                .setGroupName("root")
                .setAccount("root")
                .setPartition("gpu")
                .setQos("normal")
                .setSubmitTime(submit)
                .setEligibleTime(submit)
                .setStartTime(start)
                .setEndTime(end)
                .setState(JobState.CANCELLED)
                .setCancelledBy(0)
                .setDerivedExitStatus(9)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumCpus(2)
                .setReqCpus(2)
                .setReqNodes(1)
                .setReqTres("billing=2,cpu=2,mem=8000M,node=1")
                .setAllocTres("billing=2,cpu=2,node=1")
                .setTimeLimitMinutes(60)
                .setWorkDir("/tmp/difftest-eeicpetc/scn-032-batch-steps-r1vfwl7g")
                .setDbIndex(849)
                .setAssocId(2)
                .setQosId(1)
                .setPriority((int) 4294901349L)
                .setReason("None")
                .addSteps(step(SacctRow.BATCH, "batch", JobState.CANCELLED, start, end, 15, 1))
                .addSteps(step(0, "first", JobState.COMPLETED, start, start, 0, 1))
                .addSteps(step(1, "printenv", JobState.COMPLETED, start, end, 0, 2))
                .addSteps(step(2, "sleeper", JobState.CANCELLED, end, end, 9, 1))
                .build();
    }

    private static AccountedStep step(int id, String name, JobState state, long start, long end, int exit, int tasks) {
        return AccountedStep.newBuilder()
                .setStepId(id)
                .setName(name)
                .setState(state)
                .setStartTime(start)
                .setEndTime(end)
                .setExitStatus(exit)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumTasks(tasks)
                .setNumCpus(2)
                .setAllocTres("cpu=2,mem=0,node=1")
                .build();
    }

    private static AccountedJob task(int raw, int task) {
        return job(raw, "wrap", JobState.COMPLETED, 0, 4, 60, JobState.COMPLETED, 0).toBuilder()
                .setDisplayId("6_" + task)
                .setArrayJobId(6)
                .setArrayTaskId(task)
                .build();
    }

    private static AccountedJob job(
            int id, String name, JobState state, int exit, long ran, int limit, JobState stepState, int stepExit) {
        return AccountedJob.newBuilder()
                .setCluster("anchor")
                .setJobId(id)
                .setName(name)
                .setUserName("root")
                .setAccount("root")
                .setPartition("gpu")
                .setQos("normal")
                .setSubmitTime(T0)
                .setEligibleTime(T0)
                .setStartTime(T0)
                .setEndTime(T0 + ran)
                .setState(state)
                .setExitStatus(exit)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumCpus(1)
                .setReqTres("billing=1,cpu=1,mem=8000M,node=1")
                .setAllocTres("billing=1,cpu=1,node=1")
                .setTimeLimitMinutes(limit)
                .setWorkDir("/tmp")
                .addSteps(AccountedStep.newBuilder()
                        .setStepId(SacctRow.BATCH)
                        .setName("batch")
                        .setState(stepState)
                        .setStartTime(T0)
                        .setEndTime(T0 + ran)
                        .setExitStatus(stepExit)
                        .setNodeList("n1")
                        .setNumNodes(1)
                        .setNumTasks(1)
                        .setNumCpus(1)
                        .setAllocTres("cpu=1,mem=0,node=1"))
                .build();
    }
}
