package dev.sluice.ctld.persistence;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeTransition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.journal.ArrayTaskSplitRecord;
import dev.sluice.protocol.v1.journal.JobEndedRecord;
import dev.sluice.protocol.v1.journal.JobHoldRecord;
import dev.sluice.protocol.v1.journal.JobRequeuedRecord;
import dev.sluice.protocol.v1.journal.JobStartedRecord;
import dev.sluice.protocol.v1.journal.JobSubmittedRecord;
import dev.sluice.protocol.v1.journal.JobSuspendRecord;
import dev.sluice.protocol.v1.journal.JobUpdatedRecord;
import dev.sluice.protocol.v1.journal.JobsPurgedRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import dev.sluice.protocol.v1.journal.JournalNodeHardware;
import dev.sluice.protocol.v1.journal.NodeCreatedRecord;
import dev.sluice.protocol.v1.journal.NodeDeletedRecord;
import dev.sluice.protocol.v1.journal.NodeRegisteredRecord;
import dev.sluice.protocol.v1.journal.NodeStateRecord;
import dev.sluice.protocol.v1.journal.StepRecordedRecord;
import java.util.List;

/** Translates domain {@link StateRecord}s to and from journal entries. */
public final class RecordCodec {
    private RecordCodec() {}

    public static JournalEntry encode(long sequence, StateRecord record) {
        JournalEntry.Builder e = JournalEntry.newBuilder().setSequence(sequence).setTime(record.time());
        switch (record) {
            case StateRecord.JobSubmitted r ->
                e.setJobSubmitted(JobSubmittedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setRequest(JobRequestCodec.encode(r.request()))
                        .setPartition(r.partition())
                        .setTimeLimitMinutes((int) r.timeLimitMinutes()));
            case StateRecord.JobStarted r ->
                e.setJobStarted(JobStartedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .addAllNodes(ValueCodec.toJournal(r.allocation()))
                        .setPartition(r.partition())
                        .setTimeLimitMinutes((int) r.timeLimitMinutes()));
            case StateRecord.JobEnded r -> {
                JobEndedRecord.Builder b = JobEndedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setState(ValueCodec.toJournal(r.state()))
                        .setExitStatus(r.exitStatus())
                        .setReason(r.reason().slurmName());
                if (r.requid() != StateRecord.JobEnded.NOBODY) {
                    b.setRequid(r.requid());
                }
                e.setJobEnded(b.setPrologFailedNode(r.prologFailedNode()));
            }
            case StateRecord.PrologWait r ->
                e.setPrologWait(dev.sluice.protocol.v1.journal.PrologWaitRecord.newBuilder()
                        .setJobId(r.jobId())
                        // Sorted: the same wait is the same bytes.
                        .addAllNodes(r.nodes().stream().sorted().toList()));
            case StateRecord.JobRequeued r ->
                e.setJobRequeued(JobRequeuedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setHeld(r.held())
                        .setEligibleTime(r.eligibleTime() == r.time() ? 0 : r.eligibleTime())
                        .setPreempted(r.preempted())
                        .setLaunchFailed(r.launchFailed()));
            case StateRecord.JobSuspendChanged r ->
                e.setJobSuspend(JobSuspendRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setSuspended(r.suspended())
                        .setPreSuspendSeconds(r.preSuspendSeconds())
                        .setByPreemption(r.byPreemption()));
            case StateRecord.JobPreemptGraceStarted r ->
                e.setJobPreemptGrace(dev.sluice.protocol.v1.journal.JobPreemptGraceRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setDeadline(r.deadline())
                        .setRequeue(r.requeue())
                        .setHoldBackSeconds(r.holdBackSeconds()));
            case StateRecord.JobEndReported r ->
                e.setJobEndReported(dev.sluice.protocol.v1.journal.JobEndReportedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setExitStatus(r.exitStatus()));
            case StateRecord.ArrayTaskSplit r ->
                e.setArrayTaskSplit(ArrayTaskSplitRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setTaskId(r.taskId())
                        .setNewJobId(r.newJobId()));
            case StateRecord.JobUpdated r -> {
                JobUpdatedRecord.Builder u = JobUpdatedRecord.newBuilder().setJobId(r.jobId());
                r.changes().forEach(c -> u.addTyped(JobChangeCodec.encode(c)));
                e.setJobUpdated(u);
            }
            case StateRecord.JobHoldChanged r ->
                e.setJobHold(JobHoldRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setHold(r.hold().name()));
            case StateRecord.StepRecorded r ->
                e.setStepRecorded(StepRecordedRecord.newBuilder()
                        .setJobId(r.jobId())
                        .setStepId(r.step().stepId())
                        .setName(r.step().name())
                        .setState(ValueCodec.toJournal(r.step().state()))
                        .setStartTime(r.step().startTime())
                        .setEndTime(r.step().endTime())
                        .setExitStatus(r.step().exitStatus())
                        .setNodeList(r.step().nodeList())
                        .setNumNodes(r.step().numNodes())
                        .setNumTasks(r.step().numTasks())
                        .setNumCpus(r.step().cpus())
                        .setTres(r.step().tres()));
            case StateRecord.JobsPurged r ->
                e.setJobsPurged(JobsPurgedRecord.newBuilder().addAllJobIds(r.jobIds()));
            case StateRecord.NodeRegistered r ->
                e.setNodeRegistered(NodeRegisteredRecord.newBuilder()
                        .setName(r.name())
                        .setHostname(r.endpoint().hostname())
                        .setAddr(r.endpoint().addr())
                        .setPort(r.endpoint().port())
                        .setHardware(hardware(
                                r.equipment().hardware(),
                                r.equipment().gres(),
                                r.equipment().features()))
                        .setDynamic(r.dynamic())
                        .setBootTime(r.daemon().bootTime())
                        .setVersion(r.daemon().version())
                        .setArch(r.daemon().facts().arch())
                        .setOs(r.daemon().facts().os())
                        .setSlurmdStartTime(r.daemon().facts().slurmdStartTime()));
            case StateRecord.NodeCreated r ->
                e.setNodeCreated(NodeCreatedRecord.newBuilder()
                        .setName(r.name())
                        .setHostname(r.endpoint().hostname())
                        .setAddr(r.endpoint().addr())
                        .setPort(r.endpoint().port())
                        .setHardware(hardware(
                                r.equipment().hardware(),
                                r.equipment().gres(),
                                r.equipment().features()))
                        .setWeight(r.weight())
                        .setFuture(r.future()));
            case StateRecord.ReservationSaved r -> e.setReservationSaved(ReservationCodec.saved(r.reservation()));
            case StateRecord.ReservationDeleted r ->
                e.setReservationDeleted(dev.sluice.protocol.v1.journal.ReservationDeletedRecord.newBuilder()
                        .setName(r.name()));
            case StateRecord.ControllerStarted r ->
                e.setControllerStarted(dev.sluice.protocol.v1.journal.ControllerStartedRecord.getDefaultInstance());
            case StateRecord.NodeDeleted r ->
                e.setNodeDeleted(NodeDeletedRecord.newBuilder().setName(r.name()));
            case StateRecord.NodeStateChanged r ->
                e.setNodeState(NodeStateRecord.newBuilder()
                        .setName(r.name())
                        .setTransition(r.transition().name())
                        .setReason(r.reason())
                        .setReasonUser(r.user()));
        }
        return e.build();
    }

    /** @throws IllegalArgumentException for an entry this binary does not understand */
    public static StateRecord decode(JournalEntry e) {
        long t = e.getTime();
        return switch (e.getRecordCase()) {
            case JOB_SUBMITTED -> {
                JobSubmittedRecord r = e.getJobSubmitted();
                yield new StateRecord.JobSubmitted(
                        r.getJobId(),
                        r.hasRequest() ? JobRequestCodec.decode(r.getRequest()) : WireMapper.toDomain(r.getSpec()),
                        r.getPartition(),
                        Integer.toUnsignedLong(r.getTimeLimitMinutes()),
                        t);
            }
            case JOB_STARTED -> {
                JobStartedRecord r = e.getJobStarted();
                yield new StateRecord.JobStarted(
                        r.getJobId(),
                        ValueCodec.toDomain(r.getNodesList()),
                        r.getPartition(),
                        Integer.toUnsignedLong(r.getTimeLimitMinutes()),
                        t);
            }
            case JOB_ENDED -> {
                JobEndedRecord r = e.getJobEnded();
                JobReason reason = JobReason.of(r.getReason())
                        .orElseThrow(() -> new IllegalArgumentException("unknown job reason " + r.getReason()));
                yield new StateRecord.JobEnded(
                        r.getJobId(),
                        ValueCodec.toDomain(r.getState()),
                        r.getExitStatus(),
                        reason,
                        t,
                        r.hasRequid() ? r.getRequid() : StateRecord.JobEnded.NOBODY,
                        r.getPrologFailedNode());
            }
            case PROLOG_WAIT ->
                new StateRecord.PrologWait(
                        e.getPrologWait().getJobId(),
                        java.util.Set.copyOf(e.getPrologWait().getNodesList()),
                        t);
            case JOB_REQUEUED ->
                new StateRecord.JobRequeued(
                        e.getJobRequeued().getJobId(),
                        e.getJobRequeued().getHeld(),
                        t,
                        e.getJobRequeued().getEligibleTime() == 0
                                ? t
                                : e.getJobRequeued().getEligibleTime(),
                        e.getJobRequeued().getPreempted(),
                        e.getJobRequeued().getLaunchFailed());
            case JOB_SUSPEND ->
                new StateRecord.JobSuspendChanged(
                        e.getJobSuspend().getJobId(),
                        e.getJobSuspend().getSuspended(),
                        e.getJobSuspend().getPreSuspendSeconds(),
                        t,
                        e.getJobSuspend().getByPreemption());
            case JOB_PREEMPT_GRACE ->
                new StateRecord.JobPreemptGraceStarted(
                        e.getJobPreemptGrace().getJobId(),
                        e.getJobPreemptGrace().getDeadline(),
                        e.getJobPreemptGrace().getRequeue(),
                        e.getJobPreemptGrace().getHoldBackSeconds(),
                        t);
            case ARRAY_TASK_SPLIT ->
                new StateRecord.ArrayTaskSplit(
                        e.getArrayTaskSplit().getJobId(),
                        e.getArrayTaskSplit().getTaskId(),
                        e.getArrayTaskSplit().getNewJobId(),
                        t);
            case JOB_END_REPORTED ->
                new StateRecord.JobEndReported(
                        e.getJobEndReported().getJobId(), e.getJobEndReported().getExitStatus(), t);
            case JOB_UPDATED ->
                new StateRecord.JobUpdated(e.getJobUpdated().getJobId(), jobChanges(e.getJobUpdated()), t);
            case JOB_HOLD ->
                new StateRecord.JobHoldChanged(
                        e.getJobHold().getJobId(),
                        Job.Hold.valueOf(e.getJobHold().getHold()),
                        t);
            case STEP_RECORDED -> {
                StepRecordedRecord r = e.getStepRecorded();
                yield new StateRecord.StepRecorded(
                        r.getJobId(),
                        new JobStep(
                                r.getStepId(),
                                r.getName(),
                                ValueCodec.toDomain(r.getState()),
                                r.getStartTime(),
                                r.getEndTime(),
                                r.getExitStatus(),
                                r.getNodeList(),
                                r.getNumNodes(),
                                r.getNumTasks(),
                                r.getNumCpus(),
                                r.getTres()),
                        t);
            }
            case JOBS_PURGED -> new StateRecord.JobsPurged(e.getJobsPurged().getJobIdsList(), t);
            case NODE_REGISTERED -> {
                NodeRegisteredRecord r = e.getNodeRegistered();
                yield new StateRecord.NodeRegistered(
                        r.getName(),
                        new NodeEndpoint(r.getHostname(), r.getAddr(), r.getPort()),
                        new NodeEquipment(
                                hardware(r.getHardware()),
                                r.getHardware().getFeaturesList(),
                                r.getHardware().getGres()),
                        new DaemonReport(
                                r.getBootTime(),
                                r.getVersion(),
                                new NodeFacts(r.getArch(), r.getOs(), r.getSlurmdStartTime())),
                        r.getDynamic(),
                        t);
            }
            case NODE_CREATED -> {
                NodeCreatedRecord r = e.getNodeCreated();
                yield new StateRecord.NodeCreated(
                        r.getName(),
                        new NodeEndpoint(r.getHostname(), r.getAddr(), r.getPort()),
                        new NodeEquipment(
                                hardware(r.getHardware()),
                                r.getHardware().getFeaturesList(),
                                r.getHardware().getGres()),
                        r.getWeight(),
                        r.getFuture(),
                        t);
            }
            case RESERVATION_SAVED ->
                new StateRecord.ReservationSaved(ReservationCodec.reservation(e.getReservationSaved()), t);
            case RESERVATION_DELETED ->
                new StateRecord.ReservationDeleted(e.getReservationDeleted().getName(), t);
            case NODE_DELETED -> new StateRecord.NodeDeleted(e.getNodeDeleted().getName(), t);
            case CONTROLLER_STARTED -> new StateRecord.ControllerStarted(t);
            case NODE_STATE -> {
                NodeStateRecord r = e.getNodeState();
                yield new StateRecord.NodeStateChanged(
                        r.getName(), NodeTransition.valueOf(r.getTransition()), r.getReason(), r.getReasonUser(), t);
            }
            case RECORD_NOT_SET ->
                throw new IllegalArgumentException(
                        "journal entry " + e.getSequence() + " has a record type this version does not know");
        };
    }

    private static JournalNodeHardware hardware(NodeHardware h, String gres, List<String> features) {
        return JournalNodeHardware.newBuilder()
                .setCpus(h.cpus())
                .setBoards(h.boards())
                .setSockets(h.sockets())
                .setCoresPerSocket(h.coresPerSocket())
                .setThreadsPerCore(h.threadsPerCore())
                .setRealMemoryMb(h.realMemoryMb())
                .setTmpDiskMb(h.tmpDiskMb())
                .setGres(gres)
                .addAllFeatures(features)
                .build();
    }

    private static NodeHardware hardware(JournalNodeHardware h) {
        return NodeHardware.reported(
                h.getCpus(),
                h.getBoards(),
                h.getSockets(),
                h.getCoresPerSocket(),
                h.getThreadsPerCore(),
                h.getRealMemoryMb(),
                h.getTmpDiskMb());
    }

    /** The typed changes, or a record written before them: its map, never both. */
    private static List<JobChange> jobChanges(JobUpdatedRecord r) {
        if (r.getTypedCount() > 0) {
            return r.getTypedList().stream().map(JobChangeCodec::decode).toList();
        }
        return r.getChangesMap().entrySet().stream()
                .map(c -> JobChangeCodec.legacy(c.getKey(), c.getValue()))
                .toList();
    }
}
