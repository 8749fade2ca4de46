package dev.sluice.ctld.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over random jobs of three accounts and random MaxTRESPerAccount caps on their QOS: the gate
 * never lets an account's running jobs hold more than a cap, holds a job back only when starting
 * it would pass one for its own account (whatever the other accounts hold), and names the TRES
 * with a per-account reason.
 */
class TestQosAccountLimitProperties {
    private static final Enforcement LIMITS = Enforcement.parse(List.of("limits"));
    private static final List<String> ACCOUNTS = List.of("physics", "chem", "bio");
    private static final String[] TRES = {"cpu", "mem", "node", "gres/gpu"};

    record Demand(int account, int tasks, int nodes, long mem, int gpus) {}

    @Provide
    Arbitrary<List<Demand>> demands() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, ACCOUNTS.size() - 1),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.longs().between(0, 8).map(n -> n * 500),
                        Arbitraries.integers().between(0, 3))
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

    @Property(tries = 300)
    void noAccountEverRunsMoreThanItsLimit(@ForAll("demands") List<Demand> jobs, @ForAll("caps") String text) {
        TresLimits caps = TresLimits.parse(text);
        List<Association> assocs = new java.util.ArrayList<>();
        assocs.add(new Association("root", "", "", "", Limits.UNSET, List.of("normal"), ""));
        for (String a : ACCOUNTS) {
            assocs.add(new Association(a, "", "", "root", Limits.UNSET, List.of(), ""));
            assocs.add(new Association(a, "user1000", "", a, Limits.UNSET, List.of(), ""));
        }
        AccountingPolicy policy = new AccountingPolicy(
                1, assocs, Map.of(), Map.of("normal", new Qos("normal", 0, Limits.UNSET).withMaxTresPerAccount(caps)));
        LimitUsage usage = LimitUsage.of(policy, List.of());
        Map<String, Tres> held = new HashMap<>();
        int id = 1;
        for (Demand d : jobs) {
            String account = ACCOUNTS.get(d.account());
            Builders.JobBuilder b = Builders.aJob()
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
            Tres own = held.getOrDefault(account, Tres.empty());
            JobReason reason = LimitGate.reason(LIMITS, policy, usage, job);
            assertThat(reason != null)
                    .as("held back exactly when its own account would pass a cap")
                    .isEqualTo(caps.exceeded(own, wanted) != null);
            if (reason == null) {
                usage.started(job, wanted);
                held.put(account, own.plus(wanted));
            } else {
                assertThat(reason)
                        .isIn(
                                JobReason.MAX_CPU_PER_ACCOUNT,
                                JobReason.MAX_MEMORY_PER_ACCOUNT,
                                JobReason.MAX_NODE_PER_ACCOUNT,
                                JobReason.MAX_GRES_PER_ACCOUNT);
            }
            for (Tres t : held.values()) {
                for (String name : TRES) {
                    if (caps.get(name) != Limits.NONE) {
                        assertThat(t.get(name)).as(name).isLessThanOrEqualTo(caps.get(name));
                    }
                }
            }
        }
    }
}
