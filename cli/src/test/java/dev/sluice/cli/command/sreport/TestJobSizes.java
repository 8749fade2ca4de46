package dev.sluice.cli.command.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssociationEntry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which account and size column a job's CPU time lands in, as sreport job SizesByAccount. */
class TestJobSizes {
    private static final List<Integer> DEFAULT = List.of(50, 250, 500, 1000);
    // root > physics > theory, root > chem; users under physics and theory.
    private static final List<AssociationEntry> TREE = List.of(
            assoc("root", "", ""),
            assoc("root", "root", "root"),
            assoc("chem", "", "root"),
            assoc("physics", "", "root"),
            assoc("physics", "alice", "physics"),
            assoc("theory", "", "physics"),
            assoc("theory", "bob", "theory"));
    private static final List<AccountedJob> JOBS = List.of(
            job("physics", 4, 1000, 1600), // 600 s x 4 CPUs
            job("theory", 64, 1000, 1060), // 60 s x 64 CPUs
            job("chem", 2, 500, 700), // starts before the period: 100 s in it
            job("chem", 8, 0, 0)); // never ran

    private static Map<String, String> rows(JobSizes.Options o) {
        Map<String, Long> totals = new HashMap<>();
        Map<String, String> out = new java.util.LinkedHashMap<>();
        JobSizes.rows(JOBS, TREE, o, new JobSizes.Measure("cpu", 600, 4200, 5000), totals)
                .forEach((cluster, rows) -> rows.forEach(
                        r -> out.put(r.account(), Arrays.toString(r.perSize()) + " of " + totals.get(cluster))));
        return out;
    }

    @Test
    void byDefaultRootTakesEveryJobAsTheFirstAccountAboveIt() {
        assertThat(rows(new JobSizes.Options(DEFAULT, false, false, false, false, Set.of())))
                .containsExactly(Map.entry("root", "[2600, 3840, 0, 0, 0] of 6440"));
    }

    @Test
    void acctAsParentGroupsByRootsChildrenAndLeavesOutEmptyOnes() {
        assertThat(rows(new JobSizes.Options(DEFAULT, false, false, true, false, Set.of())))
                .containsExactly(
                        Map.entry("chem", "[200, 0, 0, 0, 0] of 6440"),
                        Map.entry("physics", "[2400, 3840, 0, 0, 0] of 6440"));
    }

    @Test
    void accountsGivenAndFlatView() {
        assertThat(rows(new JobSizes.Options(DEFAULT, false, false, false, false, Set.of("theory"))))
                .containsExactly(Map.entry("theory", "[0, 3840, 0, 0, 0] of 3840"));
        assertThat(rows(new JobSizes.Options(DEFAULT, false, true, false, true, Set.of())))
                .containsExactly(
                        Map.entry("chem", "[1, 0, 0, 0, 0] of 3"),
                        Map.entry("physics", "[1, 0, 0, 0, 0] of 3"),
                        Map.entry("theory", "[0, 1, 0, 0, 0] of 3"));
    }

    @Test
    void byWckeyAJobCountsUnderTheWckeyItCarriesAsStored() {
        List<AccountedJob> jobs = List.of(
                wckeyJob("wa", 4, 1000, 1600), // 600 s x 4 CPUs
                wckeyJob("*wa", 2, 1000, 1600), // took its user's default: not wa's
                wckeyJob("wb", 64, 1000, 1060), // 60 s x 64 CPUs
                wckeyJob("wz", 1, 1000, 1600), // no user has wz
                wckeyJob("", 1, 1000, 1600)); // not tracked
        Map<String, Long> totals = new HashMap<>();
        Map<String, String> out = new java.util.LinkedHashMap<>();
        JobSizes.rowsByWckey(
                        jobs,
                        Map.of("anchor", Set.of("wb", "wa", "wc")),
                        new JobSizes.Options(DEFAULT, false, true, true, false, Set.of("physics")),
                        new JobSizes.Measure("cpu", 600, 4200, 5000),
                        totals)
                .forEach((cluster, rows) -> rows.forEach(
                        r -> out.put(r.account(), Arrays.toString(r.perSize()) + " of " + totals.get(cluster))));
        assertThat(out)
                .containsExactly(
                        Map.entry("wa", "[2400, 0, 0, 0, 0] of 6240"), Map.entry("wb", "[0, 3840, 0, 0, 0] of 6240"));
    }

    @Test
    void columnTitles() {
        assertThat(JobSizes.titles(DEFAULT, "CPUs", false))
                .containsExactly("0-49 CPUs", "50-249 CPUs", "250-499 CPUs", "500-999 CPUs", ">= 1000 CPUs");
        assertThat(JobSizes.titles(List.of(2, 64), "CPUs", true)).containsExactly("2 CPUs", "64 CPUs");
    }

    private static AssociationEntry assoc(String account, String user, String parent) {
        return AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount(account)
                .setUser(user)
                .setParentAccount(parent)
                .build();
    }

    private static AccountedJob wckeyJob(String wckey, int cpus, long start, long end) {
        return job("physics", cpus, start, end).toBuilder().setWckey(wckey).build();
    }

    private static AccountedJob job(String account, int cpus, long start, long end) {
        return AccountedJob.newBuilder()
                .setCluster("anchor")
                .setAccount(account)
                .setAllocTres("cpu=" + cpus + ",mem=1G,node=1")
                .setStartTime(start)
                .setEndTime(end)
                .build();
    }
}
