package dev.sluice.ctld.limits;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The limit tests' cluster: two nodes n1, n2 of 8 CPUs and 16000 MB (memory consumable), with
 * {@link #withGpus()} two GPUs each, where jobs are submitted and scheduled under
 * AccountingStorageEnforce=limits and the policy each test gives, built with {@link #policy()}.
 */
final class LimitedCluster {
    static final long NOW = 1_700_000_000L;
    static final Enforcement LIMITS = Enforcement.parse(List.of("limits"));

    private final Scheduler.SelectDefaults select;
    private final ClusterState state;
    private long seq;

    private LimitedCluster(Scheduler.SelectDefaults select, GresInventory gres) {
        this.select = select;
        ClusterFixture cluster = ClusterFixture.aCluster()
                .nodes(2)
                .cpus(8)
                .memoryMb(16000)
                .gres(gres)
                .at(NOW - 100, NOW)
                .build();
        this.state = cluster.state();
        this.seq = cluster.sequence();
    }

    static LimitedCluster cpusOnly() {
        return new LimitedCluster(
                Scheduler.SelectDefaults.builder().memoryConsumable(true).build(), GresInventory.NONE);
    }

    static LimitedCluster withGpus() {
        return new LimitedCluster(
                Scheduler.SelectDefaults.builder()
                        .memoryConsumable(true)
                        .gresNames(Set.of("gpu"))
                        .build(),
                new GresInventory(List.of(
                        new GresUnit("gpu", "", 0, "/dev/nvidia0", List.of(), 1, true),
                        new GresUnit("gpu", "", 1, "/dev/nvidia1", List.of(), 1, true))));
    }

    /** A job that leaves room on its node for others (memory is consumable here). */
    static Builders.JobBuilder job() {
        return Builders.aJob().timeLimit(10).memPerNode(100);
    }

    /** A job of QOS normal on one node, for the node= caps. */
    static Builders.JobBuilder oneNodeJob() {
        return job().nodes(1).qos("normal");
    }

    /** A pending job as the gate is shown it, not submitted. */
    static Job pending(int id, JobRequest r) {
        return Job.submitted(id, r, "p", 10, 1000);
    }

    /** Submits as the controller would 10 s before {@link #NOW}: the new job's id. */
    int submit(AccountingPolicy p, JobRequest r) {
        ControlResult<Integer> out = JobControl.builder(select)
                .maxArraySize(1000)
                .limits(new PolicyView(LIMITS, p, false))
                .build()
                .submit(state, r, NOW - 10);
        out.records().forEach(this::replay);
        return out.response();
    }

    /** Starts the (plain) jobs {@code plan} starts, as the controller would at {@link #NOW}. */
    void start(SchedulePlan plan) {
        for (SchedulePlan.Start s : plan.starts()) {
            replay(new StateRecord.JobStarted(s.jobId(), s.allocation(), s.partition(), s.timeLimitMinutes(), NOW));
        }
    }

    /** Job {@code id} completes at {@link #NOW}. */
    void end(int id) {
        replay(StateRecord.JobEnded.unrequested(id, JobState.COMPLETED, 0, JobReason.NONE, NOW));
    }

    private void replay(StateRecord record) {
        state.replay(++seq, record);
    }

    /** The job as the controller holds it. */
    dev.sluice.ctld.state.Job job(int id) {
        return state.job(id);
    }

    /** A scheduling pass at {@link #NOW}. */
    SchedulePlan pass(AccountingPolicy p) {
        return new Scheduler(
                        SchedulerConfig.builder(select).reservationDepth(10).build())
                .schedule(state.image(), NOW, LIMITS, p);
    }

    /** A policy of root, whose QOS list is normal, and the accounts and users a test adds. */
    static PolicyBuilder policy() {
        return new PolicyBuilder();
    }

    /**
     * The limit tests' accounting policy, version 1: accounts under root, users under their
     * accounts, a user's first account its default, and the QOS normal (no limits unless
     * {@link #qos} gives it) with the others {@link #qos} adds.
     */
    static final class PolicyBuilder {
        private final List<Association> accounts = new ArrayList<>();
        private final List<Association> users = new ArrayList<>();
        private final Map<String, String> defaultAccounts = new LinkedHashMap<>();
        private final Map<String, Qos> qos =
                new LinkedHashMap<>(Map.of("normal", Qos.builder("normal").build()));

        private PolicyBuilder() {}

        /** A QOS the policy defines, or normal's limits (a QOS named normal). */
        PolicyBuilder qos(Qos value) {
            qos.put(value.name(), value);
            return this;
        }

        PolicyBuilder qos(Qos... values) {
            for (Qos q : values) {
                qos(q);
            }
            return this;
        }

        /** Account {@code name} under root, without limits of its own. */
        PolicyBuilder account(String name) {
            return account(name, Limits.UNSET);
        }

        PolicyBuilder account(String name, Limits limits) {
            accounts.add(Association.builder(name).parent("root").limits(limits).build());
            return this;
        }

        /** {@code user}'s association in {@code account}, without limits of its own. */
        PolicyBuilder user(String user, String account) {
            return user(user, account, Limits.UNSET);
        }

        PolicyBuilder user(String user, String account, Limits limits) {
            users.add(Association.builder(account)
                    .user(user)
                    .parent(account)
                    .limits(limits)
                    .build());
            defaultAccounts.putIfAbsent(user, account);
            return this;
        }

        AccountingPolicy build() {
            List<Association> assocs = new ArrayList<>();
            assocs.add(Association.builder("root").qos(List.of("normal")).build());
            assocs.addAll(accounts);
            assocs.addAll(users);
            return new AccountingPolicy(1, assocs, defaultAccounts, Map.copyOf(qos), UserWckeys.NONE);
        }
    }
}
