package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitProperties.TRES;
import static dev.sluice.ctld.limits.LimitedCluster.LIMITS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over random jobs of three users in three accounts and random MaxTRESPerUser or
 * MaxTRESPerAccount caps on their QOS: the gate never lets a user's (in all its accounts
 * together) or an account's (all its users together) running jobs hold more than a cap, holds a
 * job back only when starting it would pass one for its own user or account (whatever the others
 * hold), and names the TRES with Slurm's per-user or per-account reason.
 */
class TestQosCapProperties {
    private static final List<String> ACCOUNTS = List.of("physics", "chem", "bio");
    private static final List<Integer> USERS = List.of(1000, 1001, 1002);

    /** A job of {@code nodes} nodes placed on n{firstNode}, n{firstNode + 1} ... */
    record Demand(int user, int account, int tasks, int nodes, long mem, int gpus, int firstNode) {}

    @Provide
    Arbitrary<List<Demand>> demands() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, USERS.size() - 1),
                        Arbitraries.integers().between(0, ACCOUNTS.size() - 1),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.longs().between(0, 8).map(n -> n * 500),
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(1, 3))
                .as(Demand::new)
                .list()
                .ofMaxSize(16);
    }

    @Provide
    Arbitrary<TresLimits> caps() {
        return LimitProperties.caps();
    }

    /** Whose running jobs a cap adds up, and the reasons a job held back by it waits with. */
    enum Scope {
        USER(
                JobReason.QOS_MAX_CPU_PER_USER_LIMIT,
                JobReason.QOS_MAX_MEMORY_PER_USER,
                JobReason.QOS_MAX_NODE_PER_USER_LIMIT,
                JobReason.QOS_MAX_GRES_PER_USER),
        ACCOUNT(
                JobReason.MAX_CPU_PER_ACCOUNT,
                JobReason.MAX_MEMORY_PER_ACCOUNT,
                JobReason.MAX_NODE_PER_ACCOUNT,
                JobReason.MAX_GRES_PER_ACCOUNT);

        final List<JobReason> reasons;

        Scope(JobReason... reasons) {
            this.reasons = List.of(reasons);
        }
    }

    @Property(tries = 300)
    void noUserEverRunsMoreThanItsLimit(@ForAll("demands") List<Demand> jobs, @ForAll("caps") TresLimits caps) {
        check(Scope.USER, jobs, caps);
    }

    @Property(tries = 300)
    void noAccountEverRunsMoreThanItsLimit(@ForAll("demands") List<Demand> jobs, @ForAll("caps") TresLimits caps) {
        check(Scope.ACCOUNT, jobs, caps);
    }

    private static void check(Scope scope, List<Demand> jobs, TresLimits caps) {
        List<Association> assocs = new ArrayList<>();
        assocs.add(Association.builder("root").qos(List.of("normal")).build());
        for (String a : ACCOUNTS) {
            assocs.add(Association.builder(a).parent("root").build());
            for (int uid : USERS) {
                assocs.add(Association.builder(a).user("user" + uid).parent(a).build());
            }
        }
        AccountingPolicy policy = LimitProperties.policy(
                assocs,
                scope == Scope.USER
                        ? Qos.builder("normal").maxTresPerUser(caps).build()
                        : Qos.builder("normal").maxTresPerAccount(caps).build());
        LimitUsage usage = LimitUsage.of(policy, List.of());
        Map<String, Tres> held = new HashMap<>();
        // A node counts once against the caps however many of the owner's jobs share it.
        Map<String, Set<String>> nodesHeld = new HashMap<>();
        int id = 1;
        for (Demand d : jobs) {
            String account = ACCOUNTS.get(d.account());
            String owner = scope == Scope.USER ? "user" + USERS.get(d.user()) : account;
            Job job = LimitProperties.job(id++, USERS.get(d.user()), account, d.tasks(), d.nodes(), d.mem(), d.gpus());
            Tres wanted = JobTres.of(job.request());
            Set<String> ownNodes = nodesHeld.computeIfAbsent(owner, k -> new TreeSet<>());
            Tres own = held.getOrDefault(owner, Tres.empty()).with("node", ownNodes.size());
            // Before placement it may yet land on the nodes its owner holds.
            Tres beyond = wanted.with("node", Math.max(0, d.nodes() - ownNodes.size()));
            JobReason reason = LimitGate.reason(LIMITS, policy, usage, job);
            assertThat(reason != null)
                    .as("held back exactly when its own " + scope + " would pass a cap")
                    .isEqualTo(caps.exceeded(own, beyond) != null);
            List<String> placed = LimitProperties.placed(d.firstNode(), d.nodes());
            Set<String> after = new TreeSet<>(ownNodes);
            after.addAll(placed);
            if (reason == null) {
                reason = LimitGate.placed(LIMITS, policy, usage, job, placed);
                assertThat(reason != null)
                        .as("held back on its nodes exactly when they take its own " + scope + " past node=")
                        .isEqualTo(caps.get("node") != Limits.NONE && after.size() > caps.get("node"));
            }
            if (reason == null) {
                usage.started(job, wanted, placed);
                held.put(owner, held.getOrDefault(owner, Tres.empty()).plus(wanted));
                ownNodes.addAll(placed);
            } else {
                assertThat(reason).isIn(scope.reasons);
            }
            for (Map.Entry<String, Tres> e : held.entrySet()) {
                Tres t = e.getValue().with("node", nodesHeld.get(e.getKey()).size());
                for (String name : TRES) {
                    if (caps.get(name) != Limits.NONE) {
                        assertThat(t.get(name)).as(name).isLessThanOrEqualTo(caps.get(name));
                    }
                }
            }
        }
    }
}
