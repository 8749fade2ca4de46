package dev.sluice.cli.command.sshare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.format.FieldTable;
import dev.sluice.protocol.v1.ShareInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sshare's lines against real Slurm 22.05's (the root account and user, priority/multifactor and basic). */
class TestShareColumns {
    private static final List<String> TRES = List.of(
            "cpu",
            "mem",
            "energy",
            "node",
            "billing",
            "fs/disk",
            "vmem",
            "pages",
            "gres/gpu",
            "gres/mps",
            "gres/shard");

    private static List<String> lines(List<ShareColumn> columns, FieldTable.Mode mode, ShareInfo... shares) {
        List<FieldTable.Column> layout = new ArrayList<>();
        columns.forEach(c -> layout.add(new FieldTable.Column(c.title, c.width)));
        FieldTable t = new FieldTable(layout, mode);
        List<String> out = new ArrayList<>(t.header());
        for (ShareInfo s : shares) {
            List<String> v = new ArrayList<>();
            columns.forEach(c -> v.add(c.value(s, (int) s.getDepth(), "anchor", TRES)));
            out.add(t.row(v));
        }
        return out;
    }

    private static final ShareInfo ROOT_MF = ShareInfo.newBuilder()
            .setAccount("root")
            .setParentShares(true)
            .setNormShares(0)
            .setNormUsage(Double.NaN)
            .setEffectiveUsage(1)
            .setFairshare(Double.NaN)
            .setLevelFs(Double.NaN)
            .build();
    private static final ShareInfo USER_MF = ShareInfo.newBuilder()
            .setAccount("root")
            .setUser("root")
            .setDepth(1)
            .setRawShares(1)
            .setNormShares(1)
            .setFairshare(1)
            .setLevelFs(Double.POSITIVE_INFINITY)
            .build();

    @Test
    void theLongLayoutUnderMultifactor() {
        assertThat(lines(ShareColumn.LONG, FieldTable.Mode.FIXED, ROOT_MF, USER_MF))
                .containsExactly(
                        "Account                    User  RawShares  NormShares    RawUsage   NormUsage  EffectvUsage  FairShare    LevelFS                    GrpTRESMins                    TRESRunMins ",
                        "-------------------- ---------- ---------- ----------- ----------- ----------- ------------- ---------- ---------- ------------------------------ ------------------------------ ",
                        "root                                          0.000000           0                  1.000000                                                      cpu=0,mem=0,energy=0,node=0,b+ ",
                        " root                      root          1    1.000000           0    0.000000      0.000000   1.000000        inf                                cpu=0,mem=0,energy=0,node=0,b+ ");
    }

    @Test
    void parsableUnderBasic() {
        ShareInfo root = ShareInfo.newBuilder()
                .setAccount("root")
                .setParentShares(true)
                .setNormShares(Double.NaN)
                .setNormUsage(Double.NaN)
                .setFairshare(Double.NaN)
                .build();
        ShareInfo user = ShareInfo.newBuilder()
                .setAccount("root")
                .setUser("root")
                .setDepth(1)
                .setRawShares(1)
                .setNormShares(Double.NaN)
                .setNormUsage(Double.NaN)
                .build();
        assertThat(lines(ShareColumn.LONG, FieldTable.Mode.PARSABLE2, root, user))
                .containsExactly(
                        "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins",
                        "root||||0||0.000000||0.000000||cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0,gres/gpu=0,gres/mps=0,gres/shard=0",
                        " root|root|1||0||0.000000|0.000000|0.000000||cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0,gres/gpu=0,gres/mps=0,gres/shard=0");
    }

    @Test
    void namesMatchByAnyLeadingPartInAnyCase() {
        assertThat(ShareColumn.named("acc")).contains(ShareColumn.ACCOUNT);
        assertThat(ShareColumn.named("raws")).contains(ShareColumn.RAWSHARES);
        assertThat(ShareColumn.named("TRESRun")).contains(ShareColumn.TRESRUNMINS);
        assertThat(ShareColumn.named("bogus")).isEmpty();
        assertThat(ShareColumn.named("")).isEmpty();
    }

    @Test
    void runningMinutesFillTheTresList() {
        ShareInfo s = USER_MF.toBuilder()
                .putTresRunMins("cpu", 120)
                .putTresRunMins("gres/gpu", 30)
                .build();
        assertThat(ShareColumn.TRESRUNMINS.value(s, 1, "anchor", TRES))
                .isEqualTo(
                        "cpu=120,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0,gres/gpu=30,gres/mps=0,gres/shard=0");
    }

    @Test
    void theIdIsDbdsAndBlankWithoutOne() {
        assertThat(ShareColumn.ID.value(USER_MF.toBuilder().setId(2).build(), 1, "anchor", TRES))
                .isEqualTo("2");
        assertThat(ShareColumn.ID.value(USER_MF, 1, "anchor", TRES)).isEmpty();
    }
}
