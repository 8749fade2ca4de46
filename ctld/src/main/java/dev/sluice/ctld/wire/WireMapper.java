package dev.sluice.ctld.wire;

import com.google.protobuf.ByteString;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.GresBinding;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.common.text.RawText;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.ArrayRequest;
import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.FeatureConstraint;
import dev.sluice.ctld.state.GpuCount;
import dev.sluice.ctld.state.GresRequests;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeNames;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.PartitionChange;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.NodeHardware.Builder;
import dev.sluice.protocol.v1.PartitionState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Mapping between the wire's generated classes and the controller's domain values. The only
 * place both meet, so the wire format never leaks inward (Kafka builds its domain objects
 * from wire records the same way).
 */
public final class WireMapper {
    private WireMapper() {}

    public static JobRequest toDomain(JobSpec s) {
        Identity o = s.getOwner();
        return JobRequest.builder(new JobRequest.Owner(o.getUid(), o.getGid(), o.getUserName()))
                .name(s.getName())
                .script(RawText.decode(s.getScript().toByteArray()))
                .scriptArgs(s.getScriptArgsList())
                .workDir(s.getWorkDir())
                .environment(rawEnvironment(s.getEnvironmentMap()))
                .minNodes(s.getMinNodes())
                .maxNodes(s.getMaxNodes())
                .numTasks(s.getNumTasks())
                .cpusPerTask(s.getCpusPerTask())
                .ntasksPerNode(s.getNtasksPerNode())
                .partition(s.getPartition())
                .timeLimitMinutes(
                        s.getTimeLimitMinutes() == 0
                                ? JobRequest.TIME_NOT_SET
                                : Integer.toUnsignedLong(s.getTimeLimitMinutes()))
                .io(new JobRequest.Io(
                        s.getStdOut(),
                        s.getStdErr(),
                        s.getStdIn(),
                        parsed("OpenMode", s.getOpenMode(), OpenMode::parse, ErrorCode.INVALID_ARGUMENT)))
                .submitHost(s.getSubmitHost())
                .exclusive(s.getExclusive())
                .oversubscribe(s.getOversubscribe())
                .memPerNodeMb(s.getMemPerNodeMb())
                .memPerCpuMb(s.getMemPerCpuMb())
                .reqNodes(parsed("ReqNodeList", s.getReqNodes(), NodeNames::parse, ErrorCode.INVALID_NODE_NAME))
                .excludeNodes(parsed("ExcNodeList", s.getExcludeNodes(), NodeNames::parse, ErrorCode.INVALID_NODE_NAME))
                .account(s.getAccount())
                .comment(s.getComment())
                .hold(s.getHold())
                .gres(parsed("TresPerNode", s.getGresPerNode(), GresRequests::parse, ErrorCode.INVALID_GRES))
                .constraint(parsed("Features", s.getConstraint(), FeatureConstraint::parse, ErrorCode.INVALID_FEATURE))
                .requeue(s.getRequeue())
                .nice(s.getNice())
                .qos(s.getQos())
                .command(s.getCommand())
                .gpuOptions(new JobRequest.GpuOptions(
                        parsed("TresPerJob", s.getGpus(), GpuCount::parse, ErrorCode.INVALID_GRES),
                        parsed("TresPerNode", s.getGpusPerNode(), GpuCount::parse, ErrorCode.INVALID_GRES),
                        parsed("TresPerTask", s.getGpusPerTask(), GpuCount::parse, ErrorCode.INVALID_GRES),
                        s.getCpusPerGpu(),
                        s.getMemPerGpuMb(),
                        parsed("GresFlags", s.getGresFlags(), GresBinding::fromWire, ErrorCode.INVALID_GRES)))
                .sequencing(new JobRequest.Sequencing(
                        ArrayRequest.read(s.getArray()),
                        Dependency.read(s.getDependency()),
                        s.getKillOnInvalidDep(),
                        s.getBeginTime(),
                        s.getDeadline()))
                .warnSignal(new JobRequest.WarnSignal(
                        (int) s.getWarnSignal(), (int) s.getWarnSeconds(), s.getWarnBatchOnly()))
                .mail(parsed(
                        "MailType",
                        s.getMailType(),
                        // Names are read stripped, so a control character at an end would parse.
                        types -> JobRequest.Mail.parse(ControlCharacters.checked("MailType", types), s.getMailUser()),
                        ErrorCode.INVALID_ARGUMENT))
                .licenses(licenses(s.getLicenses()))
                .reservation(s.getReservation())
                .wckey(JobWckey.asked(s.getWckey()))
                .build();
    }

    /**
     * One option's text parsed into its type, once, where the request arrives. Text that does not
     * parse is refused with Slurm's error for it; text with a control character first with the
     * refusal every shown field gets ({@link ControlCharacters#checked}), as before the option was parsed here.
     * What the controller journaled was checked then, so it parses again on replay.
     */
    private static <T> T parsed(String field, String text, Function<String, T> parse, ErrorCode refusal) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            ControlCharacters.checked(field, text);
            throw new SlurmException(refusal);
        }
    }

    /**
     * A submission's {@code --licenses}; text that does not parse is refused as Slurm refuses
     * it. What the controller journaled was checked then, so it parses again.
     */
    static Licenses licenses(String text) {
        try {
            return Licenses.parse(text);
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_LICENSES);
        }
    }

    /** The job's owner as the wire's {@code Identity}. */
    public static Identity toWire(JobRequest.Owner o) {
        return Identity.newBuilder()
                .setUid(o.uid())
                .setGid(o.gid())
                .setUserName(o.userName())
                .build();
    }

    public static JobSpec toWire(JobRequest r) {
        return toWire(r, true);
    }

    /**
     * The request on the wire; without its script and environment unless {@code withScript}:
     * listings and accounting records leave them out, and encoding them (the environment is
     * most of a request's bytes) was most of what building a job's {@code JobInfo} cost.
     */
    public static JobSpec toWire(JobRequest r, boolean withScript) {
        JobSpec.Builder b = JobSpec.newBuilder();
        if (withScript) {
            b.setScript(ByteString.copyFrom(RawText.encode(r.launch().script())))
                    .putAllEnvironment(wireEnvironment(r.launch().environment()));
        }
        return b.setName(r.name())
                .addAllScriptArgs(r.launch().scriptArgs())
                .setWorkDir(r.launch().workDir())
                .setMinNodes(r.size().minNodes())
                .setMaxNodes(r.size().maxNodes())
                .setNumTasks(r.size().numTasks())
                .setCpusPerTask(r.size().cpusPerTask())
                .setNtasksPerNode(r.size().ntasksPerNode())
                .setPartition(r.partition())
                .setTimeLimitMinutes((int) r.timeLimitMinutes())
                .setStdOut(r.io().stdOut())
                .setStdErr(r.io().stdErr())
                .setStdIn(r.io().stdIn())
                .setOwner(toWire(r.owner()))
                .setSubmitHost(r.submitHost())
                .setExclusive(r.placement().exclusive())
                .setOversubscribe(r.placement().oversubscribe())
                .setMemPerNodeMb(r.memory().perNodeMb())
                .setMemPerCpuMb(r.memory().perCpuMb())
                .setReqNodes(r.placement().reqNodes().text())
                .setExcludeNodes(r.placement().excludeNodes().text())
                .setAccount(r.account())
                .setComment(r.comment())
                .setHold(r.hold())
                .setGresPerNode(r.gres().text())
                .setConstraint(r.placement().constraint().text())
                .setRequeue(r.requeue())
                .setOpenMode(r.io().openMode().wireName())
                .setNice(r.nice())
                .setQos(r.qos())
                .setCommand(r.launch().command())
                .setGpus(r.gpuOptions().gpus().text())
                .setGpusPerNode(r.gpuOptions().gpusPerNode().text())
                .setGpusPerTask(r.gpuOptions().gpusPerTask().text())
                .setCpusPerGpu(r.gpuOptions().cpusPerGpu())
                .setMemPerGpuMb(r.gpuOptions().memPerGpuMb())
                .setGresFlags(r.gpuOptions().binding().wireName())
                .setArray(r.sequencing().array().text())
                .setDependency(r.sequencing().dependency().text())
                .setKillOnInvalidDep(r.sequencing().killOnInvalidDep())
                .setBeginTime(r.sequencing().beginTime())
                .setDeadline(r.sequencing().deadline())
                .setWarnSignal(r.warnSignal().signal())
                .setWarnSeconds(r.warnSignal().secondsBefore())
                .setWarnBatchOnly(r.warnSignal().batchOnly())
                .setMailType(r.mail().typesText())
                .setMailUser(r.mail().user())
                .setLicenses(r.licenses().toString())
                .setReservation(r.reservation())
                .setWckey(r.wckey().text())
                .build();
    }

    // The domain keeps script and environment as RawText strings: lossless, and plain text when
    // they are UTF-8, without the wire's ByteString reaching inward.
    private static Map<String, String> rawEnvironment(Map<String, ByteString> env) {
        Map<String, String> out = new HashMap<>(env.size() * 2);
        env.forEach((k, v) -> out.put(k, RawText.decode(v.toByteArray())));
        return out;
    }

    private static Map<String, ByteString> wireEnvironment(Map<String, String> env) {
        Map<String, ByteString> out = new HashMap<>(env.size() * 2);
        env.forEach((k, v) -> out.put(k, ByteString.copyFrom(RawText.encode(v))));
        return out;
    }

    public static NodeHardware toDomain(dev.sluice.protocol.v1.NodeHardware h) {
        return NodeHardware.reported(
                h.getCpus(),
                h.getBoards(),
                h.getSockets(),
                h.getCoresPerSocket(),
                h.getThreadsPerCore(),
                h.getRealMemoryMb(),
                h.getTmpDiskMb());
    }

    public static dev.sluice.protocol.v1.NodeHardware toWire(NodeHardware h) {
        Builder b = dev.sluice.protocol.v1.NodeHardware.newBuilder()
                .setCpus(h.cpus())
                .setBoards(h.boards())
                .setSockets(h.sockets())
                .setCoresPerSocket(h.coresPerSocket())
                .setThreadsPerCore(h.threadsPerCore())
                .setRealMemoryMb(h.realMemoryMb())
                .setTmpDiskMb(h.tmpDiskMb());
        return b.build();
    }

    public static List<dev.sluice.protocol.v1.GresGrant> toWireGres(List<GresGrant> grants) {
        return grants.stream()
                .map(g -> dev.sluice.protocol.v1.GresGrant.newBuilder()
                        .setName(g.name())
                        .setType(g.type())
                        .addAllIndices(g.indices())
                        .setCount(g.count())
                        .build())
                .toList();
    }

    /** @return null for an unset or unknown wire state */
    public static JobState toDomain(dev.sluice.protocol.v1.JobState s) {
        return WireStates.jobState(s).orElse(null);
    }

    public static dev.sluice.protocol.v1.JobState toWire(JobState s) {
        return WireStates.toWire(s);
    }

    /**
     * {@code scontrol update}'s fields as the controller's changes, each parsed and checked
     * once, here (text fields may not hold control characters: {@link ControlCharacters#checked}).
     */
    public static List<JobChange> changes(dev.sluice.protocol.v1.JobChanges c) {
        List<JobChange> out = new java.util.ArrayList<>();
        if (c.hasTimeLimit()) {
            out.add(new JobChange.TimeLimit(Integer.toUnsignedLong(c.getTimeLimit())));
        }
        if (c.hasName()) {
            out.add(new JobChange.Name(ControlCharacters.checked("JobName", c.getName())));
        }
        if (c.hasComment()) {
            out.add(new JobChange.Comment(ControlCharacters.checked("Comment", c.getComment())));
        }
        if (c.hasNice()) {
            out.add(new JobChange.Nice(c.getNice()));
        }
        if (c.hasPriority()) {
            out.add(new JobChange.Priority(Integer.toUnsignedLong(c.getPriority())));
        }
        if (c.hasMinNodes()) {
            out.add(new JobChange.MinNodes(c.getMinNodes()));
        }
        if (c.hasMaxNodes()) {
            out.add(new JobChange.MaxNodes(c.getMaxNodes()));
        }
        if (c.hasNumTasks()) {
            out.add(new JobChange.Tasks(c.getNumTasks()));
        }
        if (c.hasPartition()) {
            out.add(new JobChange.PartitionName(ControlCharacters.checked("Partition", c.getPartition())));
        }
        if (c.hasArrayTaskThrottle()) {
            out.add(new JobChange.ArrayThrottle(c.getArrayTaskThrottle()));
        }
        if (c.hasLicenses()) {
            out.add(new JobChange.LicenseList(licenses(c.getLicenses())));
        }
        if (c.hasWckey()) {
            out.add(new JobChange.WckeyName(JobWckey.asked(ControlCharacters.checked("WCKey", c.getWckey()))));
        }
        return List.copyOf(out);
    }

    /**
     * {@code scontrol update PartitionName=}'s fields as the controller's changes.
     *
     * @throws SlurmException for a state that is none of Slurm's
     */
    public static List<PartitionChange> changes(dev.sluice.protocol.v1.UpdatePartitionRequest r) {
        List<PartitionChange> out = new java.util.ArrayList<>();
        if (r.getState() != PartitionState.PARTITION_STATE_UNSPECIFIED) {
            out.add(new PartitionChange.State(WireStates.partitionState(r.getState())
                    .orElseThrow(() ->
                            new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid State " + r.getStateValue()))));
        }
        if (r.hasMaxTime()) {
            out.add(new PartitionChange.MaxTime(Integer.toUnsignedLong(r.getMaxTime())));
        }
        if (r.hasDefaultTime()) {
            out.add(new PartitionChange.DefaultTime(Integer.toUnsignedLong(r.getDefaultTime())));
        }
        if (r.hasMaxNodes()) {
            long n = Integer.toUnsignedLong(r.getMaxNodes());
            out.add(new PartitionChange.MaxNodes(n >= Integer.MAX_VALUE ? Partition.NODES_UNLIMITED : (int) n));
        }
        if (r.hasMinNodes()) {
            out.add(new PartitionChange.MinNodes(r.getMinNodes()));
        }
        if (r.hasHidden()) {
            out.add(new PartitionChange.Hidden(r.getHidden()));
        }
        return List.copyOf(out);
    }
}
