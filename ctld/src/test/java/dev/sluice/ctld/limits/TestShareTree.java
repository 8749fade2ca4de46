package dev.sluice.ctld.limits;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.queue.PriorityWeightsBuilder.multifactor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.queue.FairShare;
import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sshare's tree: the order real Slurm 22.05 lists it in (compat 117: users before sub-accounts,
 * each by name), shares among siblings, usage shares up the tree, and priority/basic's blanks.
 */
class TestShareTree {
    private static final long NOW = 1_000_000;
    private static final PriorityWeights MF = multifactor().fairshare(10000).build();

    private static Association account(String name, String parent, long shares) {
        return Association.builder(name).parent(parent).shares(shares).build();
    }

    private static Association user(String account, String user, long shares) {
        return Association.builder(account)
                .user(user)
                .parent(account)
                .shares(shares)
                .build();
    }

    private static final AccountingPolicy POLICY = new AccountingPolicy(
            1,
            List.of(
                    account("root", "", 1),
                    user("root", "root", 1),
                    account("zeta", "root", 1),
                    account("alpha", "root", 1),
                    account("beta", "zeta", 3),
                    user("zeta", "user2000", 1),
                    user("zeta", "user1000", 2),
                    user("beta", "user1000", 1),
                    user("alpha", "user1000", 1)),
            Map.of("user1000", "zeta"),
            Map.of(),
            UserWckeys.NONE);

    private ClusterState state() {
        return ClusterFixture.aCluster().configured();
    }

    private static String render(List<ShareTree.Line> lines) {
        StringBuilder b = new StringBuilder();
        lines.forEach(l -> b.append(" ".repeat(l.depth()))
                .append(l.account())
                .append('|')
                .append(l.user())
                .append('\n'));
        return b.toString();
    }

    @Test
    void usersComeBeforeSubAccountsEachByName() {
        ClusterState s = state();
        List<ShareTree.Line> lines = ShareTree.lines(POLICY, FairShare.of(s.image(), MF, NOW), true);
        assertThat(render(lines)).isEqualTo("""
                        root|
                         root|root
                         alpha|
                          alpha|user1000
                         zeta|
                          zeta|user1000
                          zeta|user2000
                          beta|
                           beta|user1000
                        """);
        ShareTree.Line beta = lines.get(7);
        // zeta's children: user1000 (2), user2000 (1), beta (3).
        assertThat(beta.normShares()).isEqualTo(0.5);
        assertThat(lines.get(5).normShares()).isEqualTo(2.0 / 6);
        assertThat(lines.get(0).rawShares()).isEqualTo(-1);
        assertThat(lines.get(0).effectiveUsage()).isEqualTo(1.0);
        assertThat(lines.get(1).levelFs()).isInfinite();
    }

    @Test
    void usageCountsInTheJobsAccountAndAddsUpTheTree() {
        ClusterState s = state();
        int id = s.nextJobId();
        s.replay(
                1,
                new StateRecord.JobSubmitted(
                        id, aJob().uid(1000).account("beta").tasks(2).build(), "p", 10, NOW - 200));
        s.replay(
                2,
                new StateRecord.JobStarted(
                        id, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 2))), "p", 10, NOW - 100));
        List<ShareTree.Line> lines = ShareTree.lines(
                POLICY, FairShare.of(s.image(), MF, NOW), true, ShareTree.runMinutes(s.image(), NOW), NOW);
        assertThat(lines.get(0).rawUsage()).isEqualTo(200.0);
        assertThat(lines.get(4).rawUsage()).isEqualTo(200.0); // zeta
        assertThat(lines.get(4).effectiveUsage()).isEqualTo(1.0);
        assertThat(lines.get(8).rawUsage()).isEqualTo(200.0); // beta|user1000
        assertThat(lines.get(8).normUsage()).isEqualTo(1.0);
        assertThat(lines.get(5).rawUsage()).isZero(); // zeta|user1000: another account
        // 2 CPUs with 8 of their 10 minutes left.
        assertThat(lines.get(8).tresRunMins()).containsEntry("cpu", 16L).containsEntry("node", 8L);
        assertThat(lines.get(0).tresRunMins()).containsEntry("cpu", 16L);
        assertThat(lines.get(8).fairShare()).isLessThan(1.0);
    }

    @Test
    void anEndedJobsUsageHalvesEachHalfLifeAndNeverDecaysWithAHalfLifeOfZero() {
        ClusterState s = state();
        int id = s.nextJobId();
        long week = 7 * 86400;
        s.replay(
                1,
                new StateRecord.JobSubmitted(
                        id, aJob().uid(1000).account("beta").tasks(2).build(), "p", 10, 0));
        s.replay(
                2,
                new StateRecord.JobStarted(
                        id,
                        new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 2))),
                        "p",
                        10,
                        NOW - week - 100));
        s.replay(3, new StateRecord.JobEnded(id, JobState.COMPLETED, 0, JobReason.NONE, NOW - week, 0));
        PriorityWeights noDecay =
                multifactor().fairshare(10000).decayHalfLifeSeconds(0).build();

        assertThat(ShareTree.lines(POLICY, FairShare.of(s.image(), MF, NOW), true)
                        .get(8)
                        .rawUsage())
                .isCloseTo(100.0, within(1e-9));
        assertThat(ShareTree.lines(POLICY, FairShare.of(s.image(), noDecay, NOW), true)
                        .get(8)
                        .rawUsage())
                .isEqualTo(200.0);
    }

    @Test
    void fairTreeRanksUsersByLevelFsFromRootDownAndTiesShareARank() {
        ClusterState s = state();
        int id = s.nextJobId();
        s.replay(
                1,
                new StateRecord.JobSubmitted(
                        id, aJob().uid(1000).account("beta").tasks(2).build(), "p", 10, NOW - 200));
        s.replay(
                2,
                new StateRecord.JobStarted(
                        id, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 2))), "p", 10, NOW - 100));
        List<ShareTree.Line> lines = ShareTree.lines(POLICY, FairShare.of(s.image(), MF, NOW), true);
        // Five users: root (inf), alpha's (inf), zeta's two without usage (inf, tied), beta's.
        assertThat(lines)
                .filteredOn(l -> !l.user().isEmpty())
                .extracting(l -> l.account() + "|" + l.user() + "=" + l.fairShare())
                .containsExactly(
                        "root|root=1.0",
                        "alpha|user1000=0.8",
                        "zeta|user1000=0.6",
                        "zeta|user2000=0.6",
                        "beta|user1000=0.2");
        int other = s.nextJobId();
        s.replay(3, new StateRecord.JobSubmitted(other, aJob().uid(1000).build(), "p", 10, NOW));
        int stranger = s.nextJobId();
        s.replay(4, new StateRecord.JobSubmitted(stranger, aJob().uid(3000).build(), "p", 10, NOW));
        var ofJobs = FairTree.ofJobs(POLICY, s.image(), MF, NOW);
        var jobs = s.image().jobs().stream().toList();
        // The job in beta; one without an account (its user's default, zeta); no association.
        assertThat(jobs.stream().filter(j -> j.id() == id).map(ofJobs::applyAsDouble))
                .containsExactly(0.2);
        assertThat(jobs.stream().filter(j -> j.id() == other).map(ofJobs::applyAsDouble))
                .containsExactly(0.6);
        assertThat(jobs.stream().filter(j -> j.id() == stranger).map(ofJobs::applyAsDouble))
                .containsExactly(0.0);
    }

    @Test
    void basicKeepsNoUsageAndNormalizesNothing() {
        ClusterState s = state();
        List<ShareTree.Line> lines = ShareTree.lines(POLICY, FairShare.of(s.image(), MF, NOW), false);
        ShareTree.Line root = lines.get(0);
        ShareTree.Line user = lines.get(1);
        assertThat(root.normShares()).isNaN();
        assertThat(root.effectiveUsage()).isZero();
        assertThat(root.levelFs()).isZero();
        assertThat(user.fairShare()).isZero();
        assertThat(user.normUsage()).isNaN();
    }

    @Test
    void eachLineKeepsDbdsIdOfItsAssociation() {
        AccountingPolicy numbered = new AccountingPolicy(
                1,
                List.of(
                        new Association("root", "", "", "", Limits.UNSET, List.of(), "", 1, 1),
                        new Association("root", "root", "", "root", Limits.UNSET, List.of(), "", 1, 2)),
                Map.of(),
                Map.of(),
                UserWckeys.NONE);
        assertThat(ShareTree.lines(numbered, FairShare.of(state().image(), MF, NOW), false))
                .extracting(ShareTree.Line::id)
                .containsExactly(1L, 2L);
    }

    @Test
    void withoutARootAccountThereIsNoTree() {
        assertThat(ShareTree.lines(AccountingPolicy.EMPTY, FairShare.of(state().image(), MF, NOW), true))
                .isEmpty();
    }

    @Test
    void anAssociationLearnedAfterTheLastDecayPassWaitsForTheNext() {
        // Observed on Slurm 22.05 (compat 227): an account added after the pass shows NormShares
        // but no NormUsage, EffectvUsage and LevelFS 0, and its users FairShare 0, until the next.
        long start = NOW - 1000;
        PriorityWeights w = MF.withCalcEpoch(start); // passes at start, +300, +600, +900
        long lastPass = w.lastPass(NOW);
        assertThat(lastPass).isEqualTo(start + 900);
        AccountingPolicy before = new AccountingPolicy(
                1, List.of(account("root", "", 1), user("root", "root", 1)), Map.of(), Map.of(), UserWckeys.NONE);
        AccountingPolicy after = new AccountingPolicy(
                        2,
                        List.of(
                                account("root", "", 1),
                                user("root", "root", 1),
                                account("acct", "root", 1),
                                user("acct", "user1000", 1)),
                        Map.of(),
                        Map.of(),
                        UserWckeys.NONE)
                .learnedAfter(before, lastPass + 10);
        FairShare usage = FairShare.of(state().image(), w, NOW);

        List<ShareTree.Line> pending = ShareTree.lines(after, usage, true, Map.of(), lastPass);
        ShareTree.Line acct = pending.get(2);
        ShareTree.Line user = pending.get(3);
        assertThat(acct.account()).isEqualTo("acct");
        assertThat(acct.normShares()).isEqualTo(0.5);
        assertThat(acct.normUsage()).isNaN();
        assertThat(acct.effectiveUsage()).isZero();
        assertThat(acct.levelFs()).isZero();
        assertThat(acct.fairShare()).isNaN();
        assertThat(user.normUsage()).isNaN();
        assertThat(user.levelFs()).isZero();
        assertThat(user.fairShare()).isZero();
        // root's user, known before the pass, ranks alone.
        assertThat(pending.get(1).fairShare()).isEqualTo(1.0);

        // Its jobs' fair-share factor is 0 too; a QOS's UsageThreshold falls back to
        // 2^-(EffectvUsage/NormShares) = 1 for them, so a threshold of 1 lets them run (compat 253).
        dev.sluice.ctld.state.Job job =
                LimitedCluster.pending(1, LimitedCluster.job().account("acct").build());
        assertThat(FairTree.ofJobs(after, state().image(), w, NOW).applyAsDouble(job))
                .isZero();
        assertThat(FairTree.forThreshold(after, state().image(), w, NOW).applyAsDouble(job))
                .isEqualTo(1.0);

        List<ShareTree.Line> next = ShareTree.lines(after, usage, true, Map.of(), lastPass + 300);
        assertThat(next.get(2).normUsage()).isZero();
        assertThat(next.get(2).levelFs()).isInfinite();
        assertThat(next.get(3).fairShare()).isPositive();
    }
}
