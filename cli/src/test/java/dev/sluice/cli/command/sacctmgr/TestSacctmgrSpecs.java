package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestSacctmgrSpecs {
    private static final List<String> KEYS = new ArrayList<>(List.of("name", "accounts", "clusters", "parent"));

    static {
        KEYS.addAll(SacctmgrSpecs.LIMIT_KEYS);
    }

    @Test
    void modifySplitsAtSet() {
        assertThat(SacctmgrModify.whereAndSet(List.of("where", "name=bob", "SET", "MaxJobs=2", "DefaultAccount=x")))
                .containsExactly(List.of("name=bob"), List.of("MaxJobs=2", "DefaultAccount=x"));
        assertThat(SacctmgrModify.whereAndSet(List.of("bob"))).containsExactly(List.of("bob"), List.of());
    }

    @Test
    void changeReportNamesAnAccountAssociationWithItsParent() {
        AssociationEntry account = AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount("a215c")
                .setParentAccount("a215")
                .build();
        AssociationEntry user = account.toBuilder().setUser("sluiceuser1").build();
        AssociationEntry root = AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount("root")
                .build();
        // Recorded from slurmdbd 22.05 (compat 215).
        assertThat(SacctmgrModify.describe(account)).isEqualTo("C = anchor     A = a215c of a215");
        assertThat(SacctmgrModify.describe(user)).isEqualTo("C = anchor     A = a215c                U = sluiceuser1");
        assertThat(SacctmgrModify.describe(root)).isEqualTo("C = anchor     A = root                ");
    }

    @Test
    void namesKeysAndFillerWords() {
        SacctmgrSpecs s =
                SacctmgrSpecs.parse(List.of("where", "a,b", "Name=c", "Account=x,y", "set", "CLUSTERS=k"), KEYS);
        assertThat(s.names).containsExactly("a", "b", "c");
        assertThat(s.list("accounts")).containsExactly("x", "y");
        assertThat(s.list("clusters")).containsExactly("k");
    }

    @Test
    void namesAndTextsAreSentInLowerCaseAsSacctmgrSendsThem() {
        SacctmgrSpecs s = SacctmgrSpecs.parse(
                List.of(
                        "MixedCase,Other",
                        "Name=THIRD",
                        "Account=Phys",
                        "Parent=Top",
                        "Cluster=Anchor",
                        "Description=Mixed Desc",
                        "Org=Big Org",
                        "DefaultAccount=Phys",
                        "GrpTRES=gres/GPU=2",
                        "AdminLevel=Operator"),
                List.of(
                        "name",
                        "accounts",
                        "parent",
                        "clusters",
                        "description",
                        "organization",
                        "defaultaccount",
                        "grptres",
                        "adminlevel"));
        assertThat(s.names).containsExactly("mixedcase", "other", "third");
        assertThat(s.list("accounts")).containsExactly("phys");
        assertThat(s.get("parent")).isEqualTo("top");
        assertThat(s.list("clusters")).containsExactly("anchor");
        assertThat(s.get("description")).isEqualTo("mixed desc");
        assertThat(s.get("organization")).isEqualTo("big org");
        assertThat(s.get("defaultaccount")).isEqualTo("phys");
        // Values that are not names pass as typed.
        assertThat(s.get("grptres")).isEqualTo("gres/GPU=2");
        assertThat(s.get("adminlevel")).isEqualTo("Operator");
    }

    @Test
    void showConditionsLookForLowerCaseNames() {
        ShowConditions c = ShowConditions.parse(
                List.of("MixedCase", "Accounts=Phys", "Users=Alice", "Clusters=Anchor", "format=Account"),
                ShowConditions.Entity.ACCOUNT);
        assertThat(c.names()).containsExactly("mixedcase");
        assertThat(c.accounts()).containsExactly("phys");
        assertThat(c.users()).containsExactly("alice");
        assertThat(c.clusters()).containsExactly("anchor");
        assertThat(c.format()).containsExactly("Account");
    }

    @Test
    void limitsAndTheirSettingLines() {
        SacctmgrSpecs s = SacctmgrSpecs.parse(
                List.of(
                        "MaxJobs=5",
                        "MaxWall=90",
                        "Share=3",
                        "GrpTRES=cpu=10,mem=8G,gres/gpu=2",
                        "MaxSubmit=7",
                        "GrpJobs=4",
                        "GrpSubmit=6"),
                KEYS);
        List<String> lines = new ArrayList<>();
        AssociationLimits l = s.limits(lines);
        assertThat(l.getMaxJobs()).isEqualTo(5);
        assertThat(l.getMaxWallMinutes()).isEqualTo(90);
        assertThat(l.getShares()).isEqualTo(3);
        assertThat(l.getGrpTres()).isEqualTo("cpu=10,mem=8G,gres/gpu=2");
        assertThat(l.getGrpJobs()).isEqualTo(4);
        assertThat(l.getGrpSubmitJobs()).isEqualTo(6);
        assertThat(l.getMaxSubmitJobs()).isEqualTo(7);
        assertThat(l.hasQos()).isFalse();
        assertThat(lines)
                .containsExactly(
                        "  Fairshare     = 3",
                        "  GrpJobs       = 4",
                        "  GrpSubmitJobs = 6",
                        "  GrpTRES       = cpu=10,mem=8G,gres/gpu=2",
                        "  MaxJobs       = 5",
                        "  MaxSubmitJobs = 7",
                        "  MaxWall       = 01:30:00");
    }

    @Test
    void anAssociationsMaxTresPerNodeIsALimitKey() {
        List<String> lines = new ArrayList<>();
        AssociationLimits l = SacctmgrSpecs.parse(List.of("MaxTRES=cpu=8", "MaxTRESPerNode=gres/gpu=1"), KEYS)
                .limits(lines);
        assertThat(l.getMaxTresPerNode()).isEqualTo("gres/gpu=1");
        // Recorded from sacctmgr 22.05 (compat 251, 252).
        assertThat(lines).containsExactly("  MaxTRES       = cpu=8", "  MaxTRESPerNode= gres/gpu=1");
    }

    @Test
    void plainMegabytesShowWithTheirUnit() {
        List<String> lines = new ArrayList<>();
        AssociationLimits l =
                SacctmgrSpecs.parse(List.of("MaxTRESPerNode=mem=1000"), KEYS).limits(lines);
        assertThat(l.getMaxTresPerNode()).isEqualTo("mem=1000");
        // Recorded from sacctmgr 22.05 (compat 266).
        assertThat(lines).containsExactly("  MaxTRESPerNode= mem=1000M");
    }

    @Test
    void unknownKeysAndBadNumbersAreRefused() {
        assertThatThrownBy(() -> SacctmgrSpecs.parse(List.of("bogus=1"), KEYS))
                .hasMessage(" Unknown option: bogus=1\n Use keyword 'where' to modify condition");
        assertThatThrownBy(
                        () -> SacctmgrSpecs.parse(List.of("maxjobs=-2"), KEYS).limits(new ArrayList<>()))
                .hasMessage(" Bad MaxJobs value: -2");
    }

    @Test
    void wallLimitsPrintAsSacctmgrDoes() {
        assertThat(AssocValues.wall(1440)).isEqualTo("1-00:00:00");
        assertThat(AssocValues.wall(61)).isEqualTo("01:01:00");
    }
}
