package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code format=}, {@code tree} and {@code -s} show, as real Slurm 22.05 shows it. */
class TestSacctmgrListing {
    private static List<String> titles(String format, boolean tree) {
        return PrintField.parse(format, tree).stream()
                .map(c -> c.field().title() + "%" + c.width())
                .toList();
    }

    @Test
    void formatNamesResolveAsSlurmDoes() {
        // Prefixes with their minimum lengths, and the longer names tried before shorter ones.
        assertThat(titles("cluster,controlhost,controlport,rpc", false))
                .containsExactly("Cluster%10", "ControlHost%15", "ControlPort%12", "RPC%5");
        assertThat(titles("maxtrespu,maxjobspu,maxsubmitpu,maxtres,fairshare,parentname", false))
                .containsExactly(
                        "MaxTRESPU%13", "MaxJobsPU%9", "MaxSubmitPU%11", "MaxTRES%13", "Share%9", "ParentName%10");
        assertThat(titles("Acc,Des,O,DefaultA,Ad,QOS,DefaultQOS", false))
                .containsExactly("Account%10", "Descr%20", "Org%20", "Def Acct%10", "Admin%9", "QOS%20", "Def QOS%9");
    }

    @Test
    void widthsFromPercentAndTree() {
        assertThat(titles("Cluster%15,account%-15,Name", false))
                .containsExactly("Cluster%15", "Account%-15", "Name%10");
        // A tree listing left-justifies the account column, 20 wide, for its indentation.
        assertThat(titles("account,user", true)).containsExactly("Account%-20", "User%10");
        // As atoi: no digits after % keeps the default.
        assertThat(titles("user%x", false)).containsExactly("User%10");
    }

    @Test
    void unknownFieldIsRefusedInSlurmsWords() {
        assertThatThrownBy(() -> PrintField.parse("cluster,bogus", false)).hasMessage("Unknown field 'bogus'");
        // Too short to be any name.
        assertThatThrownBy(() -> PrintField.parse("ma", false)).hasMessage("Unknown field 'ma'");
    }

    @Test
    void treeIndentsAccountsUnderParentsAndUsersUnderAccounts() {
        AssocValues.TreeNames tree = new AssocValues.TreeNames();
        assertThat(List.of(
                        tree.name(assoc("root", "", "")),
                        tree.name(assoc("root", "root", "root")),
                        tree.name(assoc("physics", "", "root")),
                        tree.name(assoc("theory", "", "physics")),
                        tree.name(assoc("theory", "alice", "theory"))))
                .containsExactly("root", " root", " physics", "  theory", "   theory");
        // An account whose parent is not listed starts at the left.
        assertThat(new AssocValues.TreeNames().name(assoc("qa", "", "root"))).isEqualTo("qa");
    }

    @Test
    void associationValues() {
        AssociationEntry a = AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount("qa")
                .setUser("root")
                .setParentAccount("qa")
                .setLimits(AssociationLimits.newBuilder()
                        .setShares(1)
                        .setQos("normal,high")
                        .setMaxWallMinutes(90))
                .build();
        assertThat(AssocValues.of(a, PrintField.QOS)).isEqualTo("high,normal");
        assertThat(AssocValues.of(a, PrintField.FAIRSHARE)).isEqualTo("1");
        assertThat(AssocValues.of(a, PrintField.MAXW)).isEqualTo("01:30:00");
        // Slurm keeps a parent on an account's own association only.
        assertThat(AssocValues.of(a, PrintField.PNAME)).isEmpty();
        assertThat(AssocValues.of(a, PrintField.GRPJ)).isNull();
        assertThat(AssocValues.of(a, PrintField.MAXTN)).isEmpty();
        AssociationEntry capped = a.toBuilder()
                .setLimits(a.getLimits().toBuilder().setMaxTresPerNode("cpu=2,gres/gpu=1"))
                .build();
        assertThat(AssocValues.of(capped, PrintField.MAXTN)).isEqualTo("cpu=2,gres/gpu=1");
    }

    @Test
    void showConditions() {
        ShowConditions c = ShowConditions.parse(
                List.of("where", "user=root", "acc=qa", "format=account%20", "withassoc", "bob"),
                ShowConditions.Entity.USER);
        assertThat(c.users()).containsExactly("root");
        assertThat(c.accounts()).containsExactly("qa");
        assertThat(c.format()).containsExactly("account%20");
        assertThat(c.names()).containsExactly("bob");
        assertThat(c.withAssoc()).isTrue();
        assertThat(c.tree()).isFalse();
        assertThat(ShowConditions.parse(List.of("gres"), ShowConditions.Entity.TRES)
                        .types())
                .containsExactly("gres");
        assertThatThrownBy(() -> ShowConditions.parse(List.of("bogus=1"), ShowConditions.Entity.USER))
                .hasMessage(" Unknown condition: bogus=1");
    }

    private static AssociationEntry assoc(String account, String user, String parent) {
        return AssociationEntry.newBuilder()
                .setCluster("anchor")
                .setAccount(account)
                .setUser(user)
                .setParentAccount(parent)
                .build();
    }
}
