package dev.sluice.bench.dbd;

import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.StepAccountingRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The accounting records of job lifecycles in the order a busy controller's outbox holds them:
 * each job is submitted (its job record), started (job and batch step) and ended (job and batch
 * step, COMPLETED), five records a job, the shapes {@code AccountingEvents} makes. With {@code
 * inFlight} jobs between submission and end the lifecycles interleave: while job {@code t} is
 * submitted, job {@code t - inFlight / 2} starts and job {@code t - inFlight} ends, so most
 * batches carry the three events of different jobs and some a job's submit and start together.
 * Sequence numbers run on from {@code firstSequence}, as one outbox's do.
 */
final class Lifecycles {
    /** SLURM_BATCH_SCRIPT, the batch step's id. */
    private static final int BATCH_STEP = 0xfffffffb;
    /** What every job asks for and holds: one CPU, 1000 MB, one node. */
    private static final String ONE_CPU = Tres.of(java.util.Map.of("cpu", 1L, "mem", 1000L, "node", 1L, "billing", 1L))
            .format();
    /** What the batch step holds (no billing). */
    private static final String STEP_TRES =
            Tres.of(java.util.Map.of("cpu", 1L, "mem", 1000L, "node", 1L)).format();

    private final String cluster;
    private final int inFlight;
    /** When job 0 was submitted: the benchmark's start, so the records are of the hour at hand. */
    private final long epoch;

    private long sequence;

    Lifecycles(String cluster, int inFlight, long firstSequence) {
        this.cluster = cluster;
        this.inFlight = inFlight;
        this.sequence = firstSequence;
        this.epoch = java.time.Instant.now().getEpochSecond();
    }

    /** The sequence the next record gets. */
    long nextSequence() {
        return sequence;
    }

    /** Jobs {@code firstJob ..< firstJob + jobs}, every event of each, cut into batches. */
    List<AccountingBatch> batches(int firstJob, int jobs, int batchSize) {
        List<AccountingRecord> records = new ArrayList<>(jobs * 5);
        int startLag = Math.max(1, inFlight / 2);
        int endLag = Math.max(startLag + 1, inFlight);
        int last = firstJob + jobs - 1;
        for (int t = firstJob; t <= last + endLag; t++) {
            if (t <= last) {
                records.add(record(job(t, JobState.PENDING)));
            }
            int started = t - startLag;
            if (started >= firstJob && started <= last) {
                records.add(record(job(started, JobState.RUNNING)));
                records.add(record(step(started, JobState.RUNNING)));
            }
            int ended = t - endLag;
            if (ended >= firstJob && ended <= last) {
                records.add(record(job(ended, JobState.COMPLETED)));
                records.add(record(step(ended, JobState.COMPLETED)));
            }
        }
        List<AccountingBatch> out = new ArrayList<>();
        for (int from = 0; from < records.size(); from += batchSize) {
            out.add(AccountingBatch.newBuilder()
                    .setClusterName(cluster)
                    .addAllRecords(records.subList(from, Math.min(records.size(), from + batchSize)))
                    .build());
        }
        return out;
    }

    private AccountingRecord record(JobAccountingRecord.Builder job) {
        return AccountingRecord.newBuilder().setSequence(sequence++).setJob(job).build();
    }

    private AccountingRecord record(StepAccountingRecord.Builder step) {
        return AccountingRecord.newBuilder()
                .setSequence(sequence++)
                .setStep(step)
                .build();
    }

    private long submitTime(int id) {
        // About a hundred jobs a second, as the controller sustains them.
        return epoch + id / 100;
    }

    private static String node(int id) {
        return "c" + (1 + id % 50);
    }

    private JobAccountingRecord.Builder job(int id, JobState state) {
        long submit = submitTime(id);
        boolean started = state != JobState.PENDING;
        boolean ended = state == JobState.COMPLETED;
        AccountingJob.Builder j = AccountingJob.newBuilder()
                .setJobId(id)
                .setSubmitTime(submit)
                .setArrayTaskId(-1)
                .setName("bench-dbd")
                .setUid(1000 + id % 40)
                .setGid(1000)
                .setAccount("root")
                .setQos("normal")
                .setPartition("debug")
                .setEligibleTime(submit)
                .setStartTime(started ? submit + 1 : 0)
                .setEndTime(ended ? submit + 2 : 0)
                .setTimeLimitMinutes(SlurmLimits.NO_VAL32)
                .setState(state)
                .setReason(started ? "None" : "Priority")
                .setNodeList(started ? node(id) : "")
                .setNumNodes(1)
                .setNumCpus(1)
                .setReqTres(ONE_CPU)
                .setAllocTres(started ? ONE_CPU : "")
                .setWorkDir("/tmp")
                .setPriority(4294);
        return JobAccountingRecord.newBuilder()
                .setAccountingJob(j)
                .setUserName("user" + id % 40)
                .setReqCpus(1)
                .setReqNodes(1);
    }

    private StepAccountingRecord.Builder step(int id, JobState state) {
        long start = submitTime(id) + 1;
        boolean ended = state == JobState.COMPLETED;
        return StepAccountingRecord.newBuilder()
                .setJobId(id)
                .setJobSubmitTime(submitTime(id))
                .setStepId(BATCH_STEP)
                .setName("batch")
                .setState(state)
                .setStartTime(start)
                .setEndTime(ended ? start + 1 : 0)
                .setExitStatus(0)
                .setNodeList(node(id))
                .setNumNodes(1)
                .setNumTasks(1)
                .setNumCpus(1)
                .setAllocTres(STEP_TRES);
    }
}
