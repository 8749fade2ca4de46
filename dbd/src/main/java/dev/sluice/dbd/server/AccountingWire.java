package dev.sluice.dbd.server;

import dev.sluice.dbd.model.AccountingEntries;
import dev.sluice.dbd.model.AccountingEntry;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.ClusterTresRecord;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.ReservationAccountingRecord;
import dev.sluice.protocol.v1.StepAccountingRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's accounting batch, as it arrives on the wire, turned into the entries the store
 * writes: the one place the daemon reads the wire's job shape, so the store binds its SQL from
 * values of its own.
 */
public final class AccountingWire {
    private AccountingWire() {}

    /** @throws IllegalArgumentException for a batch no retry can fix (see {@link AccountingEntries}) */
    public static AccountingEntries entries(AccountingBatch batch) {
        List<AccountingEntry> out = new ArrayList<>(batch.getRecordsCount());
        for (AccountingRecord r : batch.getRecordsList()) {
            out.add(
                    switch (r.getRecordCase()) {
                        case JOB -> job(r.getSequence(), r.getJob());
                        case STEP -> step(r.getSequence(), r.getStep());
                        case CLUSTER_TRES -> clusterSize(r.getSequence(), r.getClusterTres());
                        case RESERVATION -> reservation(r.getSequence(), r.getReservation());
                        case RECORD_NOT_SET ->
                            throw new IllegalArgumentException("record " + r.getSequence() + " is empty");
                    });
        }
        return new AccountingEntries(batch.getClusterName(), out);
    }

    static AccountingEntry.Job job(long sequence, JobAccountingRecord r) {
        if (!r.hasAccountingJob()) {
            r = inShapeOfNow(r);
        }
        AccountingJob j = r.getAccountingJob();
        return new AccountingEntry.Job(
                sequence,
                new AccountingEntry.JobKey(
                        j.getJobId(), j.getSubmitTime(), j.getDisplayId(), j.getArrayJobId(), j.getArrayTaskId()),
                new AccountingEntry.JobOwner(
                        r.getUserName(),
                        Integer.toUnsignedLong(j.getUid()),
                        Integer.toUnsignedLong(j.getGid()),
                        r.getGroupName(),
                        j.getAccount(),
                        j.getQos(),
                        j.getWckey()),
                new AccountingEntry.JobTimes(
                        j.getEligibleTime(),
                        j.getStartTime(),
                        j.getEndTime(),
                        Integer.toUnsignedLong(j.getTimeLimitMinutes()),
                        j.getSuspendedSeconds()),
                new AccountingEntry.JobOutcome(
                        j.getState().name(),
                        j.getExitStatus(),
                        j.getReason(),
                        r.hasCancelledBy() ? Integer.toUnsignedLong(r.getCancelledBy()) : -1),
                new AccountingEntry.JobPlacement(
                        j.getPartition(),
                        j.getNodeList(),
                        j.getNumNodes(),
                        j.getNumCpus(),
                        r.getReqCpus(),
                        r.getReqNodes(),
                        j.getReqTres(),
                        j.getAllocTres()),
                j.getName(),
                j.getWorkDir(),
                Integer.toUnsignedLong(j.getPriority()),
                j.getConstraint(),
                j.getReservation(),
                Integer.toUnsignedLong(j.getReservationId()));
    }

    /**
     * A record from a controller that shipped the squeue-shaped {@code JobInfo} (still in an
     * outbox after an upgrade), in the shape controllers send now.
     */
    private static JobAccountingRecord inShapeOfNow(JobAccountingRecord r) {
        JobInfo j = r.getJob();
        JobSpec spec = j.getSpec();
        boolean array = j.getArrayJobId() != 0;
        AccountingJob job = AccountingJob.newBuilder()
                .setJobId(j.getJobId())
                .setSubmitTime(j.getSubmitTime())
                .setDisplayId(array ? j.getDisplayId() : "")
                .setArrayJobId(j.getArrayJobId())
                .setArrayTaskId(array ? j.getArrayTaskId() : -1)
                .setName(spec.getName())
                .setUid(spec.getOwner().getUid())
                .setGid(spec.getOwner().getGid())
                .setAccount(spec.getAccount())
                .setQos(spec.getQos())
                .setPartition(j.getPartition())
                .setEligibleTime(j.getEligibleTime())
                .setStartTime(j.getStartTime())
                .setEndTime(j.getEndTime())
                .setTimeLimitMinutes(j.getTimeLimitMinutes())
                .setState(j.getState())
                .setExitStatus(j.getExitStatus())
                .setReason(j.getReason())
                .setNodeList(j.getNodeList())
                .setNumNodes(j.getNumNodes())
                .setNumCpus(j.getNumCpus())
                .setReqTres(j.getReqTres())
                .setAllocTres(j.getAllocTres())
                .setWorkDir(j.getWorkDir().isEmpty() ? spec.getWorkDir() : j.getWorkDir())
                .setConstraint(spec.getConstraint())
                .setPriority(j.getPriority())
                .build();
        return r.toBuilder()
                .clearJob()
                .setAccountingJob(job)
                .setUserName(r.getUserName().isEmpty() ? spec.getOwner().getUserName() : r.getUserName())
                .build();
    }

    static AccountingEntry.Step step(long sequence, StepAccountingRecord s) {
        return new AccountingEntry.Step(
                sequence,
                s.getJobId(),
                s.getJobSubmitTime(),
                Integer.toUnsignedLong(s.getStepId()),
                s.getName(),
                new AccountingEntry.StepRun(s.getState().name(), s.getStartTime(), s.getEndTime(), s.getExitStatus()),
                new AccountingEntry.StepPlacement(
                        s.getNodeList(), s.getNumNodes(), s.getNumTasks(), s.getNumCpus(), s.getAllocTres()));
    }

    static AccountingEntry.ClusterSize clusterSize(long sequence, ClusterTresRecord r) {
        return new AccountingEntry.ClusterSize(sequence, r.getTime(), r.getTres(), r.getDownTres());
    }

    static AccountingEntry.Reservation reservation(long sequence, ReservationAccountingRecord r) {
        return new AccountingEntry.Reservation(
                sequence,
                r.getTime(),
                r.getName(),
                Integer.toUnsignedLong(r.getId()),
                r.getStartTime(),
                r.getEndTime(),
                r.getNodes(),
                r.getTres(),
                r.getFlags(),
                r.getUsersList(),
                r.getAccountsList(),
                r.getDeleted());
    }
}
