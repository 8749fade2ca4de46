package dev.sluice.dbd.store;

import dev.sluice.dbd.model.AccountingEntries;
import dev.sluice.dbd.model.StepOrder;
import dev.sluice.dbd.server.AccountingWire;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.StepAccountingRecord;
import java.util.List;

/** Builders for the controller's accounting records, shaped as the controller sends them. */
public final class Records {
    private Records() {}

    public static JobInfo pending(int id, String name, String user, long submit) {
        return JobInfo.newBuilder()
                .setJobId(id)
                .setSpec(JobSpec.newBuilder()
                        .setName(name)
                        .setAccount("physics")
                        .setOwner(Identity.newBuilder()
                                .setUid(1000 + user.length())
                                .setGid(100)
                                .setUserName(user)))
                .setState(JobState.PENDING)
                .setPartition("gpu")
                .setSubmitTime(submit)
                .setEligibleTime(submit)
                .setNumCpus(2)
                .setNumNodes(1)
                .setTimeLimitMinutes(60)
                .setReqTres("cpu=2,mem=1G,node=1,billing=2")
                .build();
    }

    public static JobInfo running(JobInfo j, long start) {
        return j.toBuilder()
                .setState(JobState.RUNNING)
                .setStartTime(start)
                .setNodeList("n1")
                .setAllocTres("cpu=2,mem=1G,node=1,billing=2,gres/gpu=1")
                .build();
    }

    public static JobInfo ended(JobInfo j, JobState state, int exitStatus, long end) {
        return j.toBuilder()
                .setState(state)
                .setExitStatus(exitStatus)
                .setEndTime(end)
                .build();
    }

    /** The job's record as the controller sends it now ({@code accounting_job}). */
    public static AccountingRecord job(long seq, JobInfo j) {
        boolean array = j.getArrayJobId() != 0;
        AccountingJob acct = AccountingJob.newBuilder()
                .setJobId(j.getJobId())
                .setSubmitTime(j.getSubmitTime())
                .setDisplayId(array ? j.getDisplayId() : "")
                .setArrayJobId(j.getArrayJobId())
                .setArrayTaskId(array ? j.getArrayTaskId() : -1)
                .setName(j.getSpec().getName())
                .setUid(j.getSpec().getOwner().getUid())
                .setGid(j.getSpec().getOwner().getGid())
                .setAccount(j.getSpec().getAccount())
                .setQos(j.getSpec().getQos())
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
                .setWorkDir(j.getWorkDir().isEmpty() ? j.getSpec().getWorkDir() : j.getWorkDir())
                .setConstraint(j.getSpec().getConstraint())
                .setPriority(j.getPriority())
                .setWckey(j.getSpec().getWckey())
                .build();
        return AccountingRecord.newBuilder()
                .setSequence(seq)
                .setJob(JobAccountingRecord.newBuilder()
                        .setAccountingJob(acct)
                        .setUserName(j.getSpec().getOwner().getUserName()))
                .build();
    }

    /**
     * The job's record as controllers sent it before accounting had a job shape of its own (the
     * squeue-shaped JobInfo), as an outbox may still hold it after an upgrade.
     */
    public static AccountingRecord jobBefore(long seq, JobInfo j) {
        return AccountingRecord.newBuilder()
                .setSequence(seq)
                .setJob(JobAccountingRecord.newBuilder().setJob(j))
                .build();
    }

    public static AccountingRecord batchStep(long seq, JobInfo j) {
        return AccountingRecord.newBuilder()
                .setSequence(seq)
                .setStep(StepAccountingRecord.newBuilder()
                        .setJobId(j.getJobId())
                        .setJobSubmitTime(j.getSubmitTime())
                        .setStepId(StepOrder.BATCH)
                        .setName("batch")
                        .setState(j.getState())
                        .setStartTime(j.getStartTime())
                        .setEndTime(j.getEndTime())
                        .setExitStatus(j.getExitStatus())
                        .setNodeList(j.getNodeList())
                        .setNumNodes(1)
                        .setNumTasks(1)
                        .setNumCpus(2)
                        .setAllocTres("cpu=2,mem=1G,node=1"))
                .build();
    }

    /** The records as the controller sends them, read as sluice-dbd's edge reads them. */
    public static AccountingEntries batch(String cluster, AccountingRecord... records) {
        return AccountingWire.entries(wireBatch(cluster, records));
    }

    /** The records as the controller sends them. */
    public static AccountingBatch wireBatch(String cluster, AccountingRecord... records) {
        return AccountingBatch.newBuilder()
                .setClusterName(cluster)
                .addAllRecords(List.of(records))
                .build();
    }
}
