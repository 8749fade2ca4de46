package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.Builders;
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
    private static final Enforcement LIMITS = Enforcement.parse(List.of("limits"));
    private static final List<String> ACCOUNTS = List.of("physics", "chem", "bio");
    private static final List<Integer> USERS = List.of(1000, 1001, 1002);
    private static final String[] TRES = {"cpu", "mem", "node", "gres/gpu"};

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
    Arbitrary<String> caps() {
        return Combinators.combine(
                        Arbitraries.longs().between(-1, 12),
                        Arbitraries.longs().between(-1, 8).map(n -> n < 0 ? -1 : n * 1000),
                        Arbitraries.longs().between(-1, 3),
                        Arbitraries.longs().between(-1, 4))
                .as((cpu, mem, node, gpu) -> "cpu=" + cpu + ",mem=" + mem + ",node=" + node + ",gres/gpu=" + gpu);
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
    void noUserEverRunsMoreThanItsLimit(@ForAll("demands") List<Demand> jobs, @ForAll("caps") String text) {
        check(Scope.USER, jobs, text);
    }

    @Property(tries = 300)
    void noAccountEverRunsMoreThanItsLimit(@ForAll("demands") List<Demand> jobs, @ForAll("caps") String text) {
        check(Scope.ACCOUNT, jobs, text);
    }

    private static void check(Scope scope, List<Demand> jobs, String text) {
        TresLimits caps = TresLimits.parse(text);
        List<Association> assocs = new java.util.ArrayList<>();
        assocs.add(Association.builder("root").qos(List.of("normal")).build());
        for (String a : ACCOUNTS) {
            assocs.add(Association.builder(a).parent("root").build());
            for (int uid : USERS) {
                assocs.add(Association.builder(a).user("user" + uid).parent(a).build());
            }
        }
        AccountingPolicy policy = new AccountingPolicy(
                1,
                assocs,
                Map.of(),
                Map.of(
                        "normal",
                        scope == Scope.USER
                                ? Qos.builder("normal").maxTresPerUser(caps).build()
                                : Qos.builder("normal").maxTresPerAccount(caps).build()));
        LimitUsage usage = LimitUsage.of(policy, List.of());
        Map<String, Tres> held = new HashMap<>();
        // A node counts once against the caps however many of the owner's jobs share it.
        Map<String, Set<String>> nodesHeld = new HashMap<>();
        int id = 1;
        for (Demand d : jobs) {
            String account = ACCOUNTS.get(d.account());
            String owner = scope == Scope.USER ? "user" + USERS.get(d.user()) : account;
            Builders.JobBuilder b = Builders.aJob()
                    .uid(USERS.get(d.user()))
                    .account(account)
                    .qos("normal")
                    .timeLimit(10)
                    .tasks(d.tasks())
                    .nodes(d.nodes())
                    .memPerNode(d.mem());
            if (d.gpus() > 0) {
                b.gres("gpu:" + d.gpus());
            }
            Job job = Job.submitted(id++, b.build(), "p", 10, 1000);
            Tres wanted = JobTres.of(job.request());
            Set<String> ownNodes = nodesHeld.computeIfAbsent(owner, k -> new TreeSet<>());
            Tres own = held.getOrDefault(owner, Tres.empty()).with("node", ownNodes.size());
            // Before placement it may yet land on the nodes its owner holds.
            Tres beyond = wanted.with("node", Math.max(0, d.nodes() - ownNodes.size()));
            JobReason reason = LimitGate.reason(LIMITS, policy, usage, job);
            assertThat(reason != null)
                    .as("held back exactly when its own " + scope + " would pass a cap")
                    .isEqualTo(caps.exceeded(own, beyond) != null);
            List<String> placed = new ArrayList<>();
            for (int i = 0; i < d.nodes(); i++) {
                placed.add("n" + (d.firstNode() + i));
            }
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
