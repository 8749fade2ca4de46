package dev.sluice.ctld.persistence;

import com.google.protobuf.ByteString;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.text.RawText;
import dev.sluice.ctld.state.ArrayRequest;
import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.protocol.v1.journal.JobRequestRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * A job's request to and from the journal's own record ({@code JobRequestRecord}), not the
 * commands' {@code JobSpec}. Option text is written as the user typed it and parsed again on
 * the way back; it was parsed when the job arrived, so it parses again.
 */
final class JobRequestCodec {
    private JobRequestCodec() {}

    static JobRequestRecord encode(JobRequest r) {
        JobRequestRecord.Builder b = JobRequestRecord.newBuilder()
                .setName(r.name())
                .setScript(ByteString.copyFrom(RawText.encode(r.launch().script())))
                .addAllScriptArgs(r.launch().scriptArgs())
                .setWorkDir(r.launch().workDir())
                .setMinNodes(r.size().minNodes())
                .setMaxNodes(r.size().maxNodes())
                .setNumTasks(r.size().numTasks())
                .setCpusPerTask(r.size().cpusPerTask())
                .setNtasksPerNode(r.size().ntasksPerNode())
                .setPartition(r.partition())
                .setTimeLimitMinutes(r.timeLimitMinutes())
                .setStdOut(r.io().stdOut())
                .setStdErr(r.io().stdErr())
                .setStdIn(r.io().stdIn())
                .setUid(r.owner().uid())
                .setGid(r.owner().gid())
                .setUserName(r.owner().userName())
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
                .setGres(r.gres().text())
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
                .setWckey(r.wckey().text());
        r.launch().environment().forEach((k, v) -> b.putEnvironment(k, ByteString.copyFrom(RawText.encode(v))));
        return b.build();
    }

    /** @throws IllegalArgumentException for option text that no longer parses */
    static JobRequest decode(JobRequestRecord r) {
        Map<String, String> env = new HashMap<>(r.getEnvironmentCount() * 2);
        r.getEnvironmentMap().forEach((k, v) -> env.put(k, RawText.decode(v.toByteArray())));
        return JobRequest.builder(new JobRequest.Owner(r.getUid(), r.getGid(), r.getUserName()))
                .name(r.getName())
                .script(RawText.decode(r.getScript().toByteArray()))
                .scriptArgs(r.getScriptArgsList())
                .workDir(r.getWorkDir())
                .environment(env)
                .minNodes(r.getMinNodes())
                .maxNodes(r.getMaxNodes())
                .numTasks(r.getNumTasks())
                .cpusPerTask(r.getCpusPerTask())
                .ntasksPerNode(r.getNtasksPerNode())
                .partition(r.getPartition())
                .timeLimitMinutes(r.getTimeLimitMinutes())
                .stdOut(r.getStdOut())
                .stdErr(r.getStdErr())
                .stdIn(r.getStdIn())
                .submitHost(r.getSubmitHost())
                .exclusive(r.getExclusive())
                .oversubscribe(r.getOversubscribe())
                .memPerNodeMb(r.getMemPerNodeMb())
                .memPerCpuMb(r.getMemPerCpuMb())
                .reqNodes(r.getReqNodes())
                .excludeNodes(r.getExcludeNodes())
                .account(r.getAccount())
                .comment(r.getComment())
                .hold(r.getHold())
                .gresPerNode(r.getGres())
                .constraint(r.getConstraint())
                .requeue(r.getRequeue())
                .openMode(r.getOpenMode())
                .nice(r.getNice())
                .qos(r.getQos())
                .command(r.getCommand())
                .gpuOptions(JobRequest.GpuOptions.parse(
                        r.getGpus(),
                        r.getGpusPerNode(),
                        r.getGpusPerTask(),
                        r.getCpusPerGpu(),
                        r.getMemPerGpuMb(),
                        r.getGresFlags()))
                .sequencing(new JobRequest.Sequencing(
                        ArrayRequest.read(r.getArray()),
                        Dependency.read(r.getDependency()),
                        r.getKillOnInvalidDep(),
                        r.getBeginTime(),
                        r.getDeadline()))
                .warnSignal(new JobRequest.WarnSignal(r.getWarnSignal(), r.getWarnSeconds(), r.getWarnBatchOnly()))
                .mail(JobRequest.Mail.parse(r.getMailType(), r.getMailUser()))
                .licenses(Licenses.parse(r.getLicenses()))
                .reservation(r.getReservation())
                .wckey(JobWckey.read(r.getWckey()))
                .build();
    }
}
