package dev.sluice.cli.testing;

import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.time.Instant;
import java.util.List;

/**
 * The cluster the golden outputs were taken from: real Slurm 22.05 ({@code up.sh}, 3 nodes of
 * 4 CPUs and 8000 MB, {@code gpu:3,mps:300,shard:12} each, partition {@code gpu} with
 * MaxTime=60) after
 *
 * <pre>
 *   sbatch --wrap "sleep 600"                       # 1: runs on n1
 *   sbatch -N2 --gres=gpu:2 -J gpujob --wrap ...    # 2: runs on n[1-2]
 *   sbatch -N3 -n12 -J bigone --wrap ...            # 3: pending, Resources
 *   sbatch --parsable -t 5 --wrap true              # 4: pending, Priority
 *   sbatch -H --wrap true                           # 5: held
 * </pre>
 *
 * all submitted at 08:46:57 UTC in {@code /tmp/gold}, the two running ones started at 08:46:58.
 */
public final class Fixtures {
    public static final long SUBMIT = Instant.parse("2026-11-29T08:46:57Z").getEpochSecond();
    public static final long START = SUBMIT + 1;
    /** When {@code squeue} and {@code squeue -l} were run. */
    public static final Instant SQUEUE_NOW = Instant.parse("2026-11-29T08:47:03Z");
    /** When the per-letter squeue runs, scontrol and sinfo were run. */
    public static final Instant LATER_NOW = Instant.parse("2026-11-29T08:47:04Z");

    private Fixtures() {}

    public static Identity root() {
        return Identity.newBuilder()
                .setUid(0)
                .setGid(0)
                .setUserName("root")
                .setHost("localhost")
                .build();
    }

    public static JobSpec.Builder wrapSpec() {
        return JobSpec.newBuilder()
                .setName("wrap")
                .setWorkDir("/tmp/gold")
                .setOwner(root())
                .setSubmitHost("localhost")
                .setRequeue(true)
                .setWrapped(true)
                .setTimeLimitMinutes(0xfffffffe);
    }

    public static JobInfo.Builder job(int id, JobSpec.Builder spec, JobState state) {
        return JobInfo.newBuilder()
                .setJobId(id)
                .setSpec(spec)
                .setState(state)
                .setPartition("gpu")
                .setSubmitTime(SUBMIT)
                .setEligibleTime(SUBMIT)
                // As the controller sends them (ctld JobTimes): accruing since eligible, and
                // last looked at by the pass the submission triggered.
                .setAccrueTime(SUBMIT)
                .setLastSchedEval(SUBMIT)
                .setTimeLimitMinutes(60)
                .setWorkDir("/tmp/gold");
    }

    public static JobInfo running1() {
        return job(1, wrapSpec(), JobState.RUNNING)
                .setPriority(0xfffeffff)
                .setStartTime(START)
                .setLastSchedEval(START)
                .setEndTime(START + 3600)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumCpus(1)
                .setBatchHost("n1")
                .setAllocTres("cpu=1,node=1,billing=1")
                .build();
    }

    public static JobInfo running2Gpu() {
        return job(2, wrapSpec().setName("gpujob").setMinNodes(2).setGresPerNode("gpu:2"), JobState.RUNNING)
                .setPriority(0xfffefffe)
                .setStartTime(START)
                .setLastSchedEval(START)
                .setEndTime(START + 3600)
                .setNodeList("n[1-2]")
                .setNumNodes(2)
                .setNumCpus(2)
                .setBatchHost("n1")
                .setAllocTres("cpu=2,node=2,billing=2")
                .build();
    }

    public static JobInfo pending3() {
        return job(3, wrapSpec().setName("bigone").setMinNodes(3).setMaxNodes(3).setNumTasks(12), JobState.PENDING)
                .setPriority(0xfffefffd)
                .setReason("Resources")
                .setNumCpus(12)
                .setReqTres("cpu=12,mem=24000M,node=3,billing=12")
                .build();
    }

    public static JobInfo pending4() {
        return job(4, wrapSpec().setTimeLimitMinutes(5), JobState.PENDING)
                .setPriority(0xfffefffc)
                .setReason("Priority")
                .setTimeLimitMinutes(5)
                .setNumCpus(1)
                .setReqTres("cpu=1,mem=8000M,node=1,billing=1")
                .build();
    }

    public static JobInfo held5() {
        return job(5, wrapSpec().setHold(true), JobState.PENDING)
                .setPriority(0)
                .setReason("JobHeldUser")
                .setEligibleTime(0)
                .setAccrueTime(0)
                .setNumCpus(1)
                .setReqTres("cpu=1,mem=8000M,node=1,billing=1")
                .build();
    }

    public static List<JobInfo> jobs() {
        return List.of(running1(), running2Gpu(), pending3(), pending4(), held5());
    }

    public static NodeInfo.Builder node(String name, int port) {
        return NodeInfo.newBuilder()
                .setName(name)
                .setHostname("localhost")
                .setAddr("127.0.0.1")
                .setPort(port)
                .setCpus(4)
                .setBoards(1)
                .setSockets(1)
                .setCoresPerSocket(4)
                .setThreadsPerCore(1)
                .setRealMemoryMb(8000)
                .setState("IDLE")
                .setGres("gpu:3,mps:300,shard:12")
                .setWeight(1)
                .addPartitions("gpu")
                .setVersion("22.05.8")
                .setArch("x86_64")
                .setOs("Linux 6.18.44-fc-v657 #1 SMP PREEMPT_DYNAMIC @0")
                .setCpuLoad(3.75)
                .setBootTime(Instant.parse("2026-11-29T08:16:49Z").getEpochSecond())
                .setCfgTres("cpu=4,mem=8000M,billing=4");
    }

    /** n1 and n2 run jobs 1 and 2 (MIXED), n3 is idle, as in the golden run. */
    public static List<NodeInfo> nodes() {
        long t1 = Instant.parse("2026-11-29T08:46:51Z").getEpochSecond();
        long t2 = t1 + 1;
        return List.of(
                node("n1", 6821)
                        .setState("MIXED")
                        .setAllocCpus(2)
                        .setAllocTres("cpu=2")
                        .setFreeMemoryMb(21058)
                        .setSlurmdStartTime(t1)
                        .setLastBusyTime(t1)
                        .build(),
                node("n2", 6822)
                        .setState("MIXED")
                        .setAllocCpus(1)
                        .setAllocTres("cpu=1")
                        .setFreeMemoryMb(21047)
                        .setSlurmdStartTime(t2)
                        .setLastBusyTime(t2)
                        .build(),
                node("n3", 6823)
                        .setFreeMemoryMb(21029)
                        .setSlurmdStartTime(t2)
                        .setLastBusyTime(t2)
                        .build());
    }

    public static PartitionInfo.Builder gpuPartition() {
        return PartitionInfo.newBuilder()
                .setName("gpu")
                .setNodes("n[1-3]")
                .setIsDefault(true)
                .setMaxTimeMinutes(60)
                .setState(dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_UP)
                .setTotalCpus(12)
                .setTotalNodes(3)
                .setPriorityJobFactor(1)
                .setPriorityTier(1);
    }
}
