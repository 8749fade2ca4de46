package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.ShareTree;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.queue.FairShare;
import dev.sluice.ctld.queue.Priorities;
import dev.sluice.ctld.queue.PriorityFactors;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.QosPriorities;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.protocol.v1.GetPrioritiesResponse;
import dev.sluice.protocol.v1.GetSharesResponse;
import dev.sluice.protocol.v1.JobPriorityInfo;
import dev.sluice.protocol.v1.PriorityWeightsInfo;
import dev.sluice.protocol.v1.ShareInfo;
import java.util.Comparator;
import java.util.Map;

/**
 * sprio's and sshare's answers, read off the latest image with the same computations the
 * scheduler orders by ({@link Priorities}, {@link FairShare}) and the accounting policy the loop
 * holds.
 */
final class DiagAnswers {
    private final ControllerLoop loop;
    private final SchedulerConfig scheduler;

    DiagAnswers(ControllerLoop loop, SchedulerConfig scheduler) {
        this.loop = requireNonNull(loop, "loop is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
    }

    GetPrioritiesResponse priorities() {
        PriorityWeights w = scheduler.priority();
        GetPrioritiesResponse.Builder out = GetPrioritiesResponse.newBuilder().setMultifactor(w.multifactor());
        if (!w.multifactor()) {
            return out.build();
        }
        out.setWeights(PriorityWeightsInfo.newBuilder()
                .setAge((int) w.age())
                .setFairshare((int) w.fairshare())
                .setJobSize((int) w.jobSize())
                .setPartition((int) w.partition())
                .setQos((int) w.qos()));
        ClusterImage image = loop.image();
        AccountingPolicy policy = loop.enforced().policy();
        QosPriorities qos = policy.qosPriorities().orElse(scheduler.qos());
        long now = loop.now();
        Map<Integer, PriorityFactors> factors = Priorities.factors(
                image,
                w,
                qos,
                policy.associations().isEmpty() ? null : dev.sluice.ctld.limits.FairTree.ofJobs(policy, image, w, now),
                now);
        image.jobs().stream()
                // Observed (scenario 226): a job waiting for its begin time has a priority
                // (squeue shows it) but sprio does not list it.
                .filter(j -> factors.containsKey(j.id()) && j.run().eligibleTime() <= now)
                .sorted(Comparator.comparingInt(Job::id))
                .forEach(j -> {
                    PriorityFactors f = factors.get(j.id());
                    out.addJobs(JobPriorityInfo.newBuilder()
                            .setJobId(j.id())
                            .setPartition(j.terms().partition())
                            .setUserId(j.request().owner().uid())
                            .setUserName(j.request().owner().userName())
                            .setAge(f.age())
                            .setFairshare(f.fairshare())
                            .setJobSize(f.jobSize())
                            .setPartitionFactor(f.partition())
                            .setQos(f.qos())
                            .setNice(f.nice())
                            .setPriority(f.priority())
                            .setPrioritySum(f.sum()));
                });
        return out.build();
    }

    GetSharesResponse shares() {
        PriorityWeights w = scheduler.priority();
        ClusterImage image = loop.image();
        FairShare usage = FairShare.of(image, w, loop.now());
        var runMinutes = ShareTree.runMinutes(image, loop.now());
        GetSharesResponse.Builder out = GetSharesResponse.newBuilder().setMultifactor(w.multifactor());
        for (ShareTree.Line l :
                ShareTree.lines(loop.enforced().policy(), usage, w.multifactor(), runMinutes, w.lastPass(loop.now()))) {
            out.addShares(ShareInfo.newBuilder()
                    .setAccount(l.account())
                    .setUser(l.user())
                    .setDepth(l.depth())
                    .setRawShares(l.rawShares() < 0 ? 0 : (int) l.rawShares())
                    .setParentShares(l.rawShares() < 0)
                    .setNormShares(l.normShares())
                    .setRawUsage((long) l.rawUsage()) // sshare shows the whole CPU-seconds, not rounded
                    .setNormUsage(l.normUsage())
                    .setEffectiveUsage(l.effectiveUsage())
                    .setFairshare(l.fairShare())
                    .setLevelFs(l.levelFs())
                    .putAllTresRunMins(l.tresRunMins())
                    .setId((int) l.id()));
        }
        return out.build();
    }
}
