package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.UserEntry;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sacctmgr's command line and the listings scripts ask for, against real Slurm 22.05's: its
 * option table, glibc's messages, {@code -r}, and {@code -n -s -P format=} listings of a
 * database holding what a new cluster holds (account root, user root), as the real one did.
 */
class TestSacctmgrCommandLine {
    /** Real sacctmgr 22.05's long options in its table's order ({@code sacctmgr --a=1} ... {@code --z=1}). */
    static final String SLURM_SACCTMGR =
            "associations help immediate noheader oneliner parsable parsable2 quiet readonly usage verbose version";

    /** Real sacctmgr's short letters ({@code sacctmgr -X version} for every letter): no -M in 22.05. */
    static final String SLURM_SHORT = "h i n o p r s v P Q V";

    @TempDir
    Path dir;

    private SacctmgrAgainstFakeDbd fake;
    private FakeDbd dbd;

    @BeforeEach
    void start() throws Exception {
        AssociationLimits limits =
                AssociationLimits.newBuilder().setShares(1).setQos("normal").build();
        ListAssocResult db = ListAssocResult.newBuilder()
                .addAccounts(AccountEntry.newBuilder()
                        .setName("root")
                        .setDescription("default root account")
                        .setOrganization("root"))
                .addUsers(UserEntry.newBuilder()
                        .setName("root")
                        .setDefaultAccount("root")
                        .setAdminLevel("Administrator"))
                .addAssociations(AssociationEntry.newBuilder()
                        .setCluster("anchor")
                        .setAccount("root")
                        .setLimits(limits)
                        .setId(1)
                        .setLft(1)
                        .setRgt(4))
                .addAssociations(AssociationEntry.newBuilder()
                        .setCluster("anchor")
                        .setAccount("root")
                        .setUser("root")
                        .setParentAccount("root")
                        .setLimits(limits)
                        .setId(2)
                        .setParentId(1)
                        .setLft(2)
                        .setRgt(3))
                .addClusters("anchor")
                .build();
        useDb(db);
    }

    @AfterEach
    void stop() throws Exception {
        fake.close();
    }

    private Output sacctmgr(String... args) {
        return fake.run(args);
    }

    @Test
    void everyOptionOfSlurmsSacctmgrIsTakenInSlurmsOrder() {
        List<OptionSpec> specs = SacctmgrCommand.TABLE.specs();
        assertThat(specs.stream().map(OptionSpec::longName).toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SACCTMGR.split(" ")));
        assertThat(specs).allMatch(OptionSpec::supported);
        assertThat(specs.stream()
                        .filter(s -> s.shortName() != 0)
                        .map(s -> String.valueOf(s.shortName()))
                        .toList())
                .containsExactlyInAnyOrderElementsOf(Arrays.asList(SLURM_SHORT.split(" ")));
    }

    @Test
    void badLinesAreGlibcsWordsAndStatus1() {
        assertThat(sacctmgr("--bogus"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacctmgr: unrecognized option '--bogus'\nTry \"sacctmgr --help\" for more information\n"));
        assertThat(sacctmgr("-M", "x").err()).startsWith("sacctmgr: invalid option -- 'M'\n");
        assertThat(sacctmgr("--json").err()).startsWith("sacctmgr: unrecognized option '--json'\n");
        assertThat(sacctmgr("--p").err())
                .startsWith("sacctmgr: option '--p' is ambiguous; possibilities: '--parsable' '--parsable2'\n");
        assertThat(sacctmgr("--o=1").err()).startsWith("sacctmgr: option '--oneliner' doesn't allow an argument\n");
        assertThat(sacctmgr("--u=1").err()).startsWith("sacctmgr: option '--usage' doesn't allow an argument\n");
        assertThat(dbd.requests()).isEmpty();
    }

    @Test
    void helpAndUsageAreOneText() {
        Output help = sacctmgr("--help");
        assertThat(help.out())
                .startsWith("sacctmgr [<OPTION>] [<COMMAND>]\n    Valid <OPTION> values are:\n"
                        + "     -h or --help: equivalent to \"help\" command\n");
        assertThat(sacctmgr("--usage")).isEqualTo(help);
        assertThat(sacctmgr("-V")).isEqualTo(new Output(0, "slurm-wlm 22.05.8\n", ""));
        // Real: -h -x prints the help, -V -x the version, -x -V the complaint.
        assertThat(sacctmgr("-h", "-x")).isEqualTo(help);
        assertThat(sacctmgr("-V", "-x")).isEqualTo(new Output(0, "slurm-wlm 22.05.8\n", ""));
        assertThat(sacctmgr("-x", "-V").exitCode()).isEqualTo(1);
    }

    @Test
    void readonlyRefusesEveryChangeBeforeLookingFurther() {
        // Real sacctmgr -r on each line.
        for (String verb : List.of("add", "create", "delete", "remove", "modify", "update")) {
            assertThat(sacctmgr("-r", verb, "account", "helperacct1"))
                    .as(verb)
                    .isEqualTo(new Output(1, "", "Can't run this command in readonly mode.\n"));
        }
        assertThat(sacctmgr("--readonly", "add", "bogus").err())
                .isEqualTo("Can't run this command in readonly mode.\n");
        assertThat(sacctmgr("-r", "bogus").err()).isEqualTo("invalid keyword: bogus\n");
        assertThat(sacctmgr("-r", "show", "bogus").err()).startsWith("No valid entity in list command\n");
        assertThat(dbd.requests()).isEmpty();
        assertThat(sacctmgr("-r", "-o", "-Q", "-v", "-n", "-P", "show", "account", "format=account"))
                .isEqualTo(new Output(0, "root\n", ""));
    }

    @Test
    void aUsersAssociationsAccountsAsScriptsAskForThem() {
        // Real: sacctmgr -n -s list user root format=account%20 (and the others).
        assertThat(sacctmgr("-n", "-s", "list", "user", "root", "format=account%20"))
                .isEqualTo(new Output(0, "                root \n", ""));
        assertThat(sacctmgr("-P", "-n", "--associations", "list", "user", "root", "format=account"))
                .isEqualTo(new Output(0, "root\n", ""));
        assertThat(sacctmgr("-s", "list", "user", "root", "format=user,account%20,partition")
                        .out())
                .isEqualTo("""
                              User              Account  Partition\s
                        ---------- -------------------- ----------\s
                              root                 root           \s
                        """);
        assertThat(sacctmgr("-s", "-p", "list", "account", "root", "format=account,user")
                        .out())
                .isEqualTo("Account|User|\nroot||\nroot|root|\n");
        assertThat(dbd.requests().getFirst().getListAssoc().getNamesList()).containsExactly("root");
    }

    @Test
    void treeListingsAndWidths() {
        assertThat(sacctmgr("show", "assoc", "tree", "format=account%30,user").out())
                .isEqualTo("""
                                               Account       User\s
                        ------------------------------ ----------\s
                                                  root           \s
                                                  root       root\s
                        """);
        assertThat(sacctmgr("show", "assoc", "tree", "format=cluster,account,user%15")
                        .out())
                .isEqualTo("""
                           Cluster Account                         User\s
                        ---------- -------------------- ---------------\s
                            anchor root                                \s
                            anchor  root                           root\s
                        """);
        assertThat(sacctmgr("-P", "show", "assoc", "tree", "format=account,user")
                        .out())
                .isEqualTo("Account|User\nroot|\n root|root\n");
        assertThat(sacctmgr("show", "assoc", "format=acc%5").out()).isEqualTo("Accou \n----- \n root \n root \n");
        // "tree" is a flag of associations only: for users it is a name, as in Slurm.
        sacctmgr("-s", "show", "user", "tree", "format=account");
        assertThat(dbd.requests().getLast().getListAssoc().getUsersList()).containsExactly("tree");
    }

    /** Points sacctmgr at a fake database holding {@code db} (instead of the one before). */
    private void useDb(ListAssocResult db) throws Exception {
        if (fake != null) {
            fake.close();
        }
        fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setListed(db));
        dbd = fake.dbd;
    }

    @Test
    void withSubAccountsWidensAccountToWhatLiesUnderIt() throws Exception {
        // Real 22.05 after adding helperacct1, helperacct3 under it, helperuser1 in helperacct3.
        ListAssocResult.Builder db = ListAssocResult.newBuilder();
        for (String[] a : new String[][] {
            {"root", "", ""},
            {"root", "root", "root"},
            {"helperacct1", "", "root"},
            {"helperacct3", "", "helperacct1"},
            {"helperacct3", "helperuser1", "helperacct3"}
        }) {
            db.addAssociations(AssociationEntry.newBuilder()
                    .setCluster("anchor")
                    .setAccount(a[0])
                    .setUser(a[1])
                    .setParentAccount(a[2]));
        }
        useDb(db.build());
        assertThat(sacctmgr("-P", "show", "assoc", "account=helperacct1", "withsub", "format=account,user")
                        .out())
                .isEqualTo("Account|User\nhelperacct1|\nhelperacct3|\nhelperacct3|helperuser1\n");
        assertThat(sacctmgr("-P", "show", "assoc", "account=helperacct1", "withsub", "tree", "format=account,user")
                        .out())
                .isEqualTo("Account|User\nhelperacct1|\n helperacct3|\n  helperacct3|helperuser1\n");
        // Without the flag the database selects the account exactly.
        sacctmgr("-P", "show", "assoc", "account=helperacct1", "format=account,user");
        assertThat(dbd.requests().getLast().getListAssoc().getAccountsList()).containsExactly("helperacct1");
    }

    @Test
    void onlyDefaultsListsByUser() throws Exception {
        // Real 22.05 after adding helperacct2, helperacct1, helperacct3 (under 1), helperuser1 in
        // 2 and 3, helperuser2 in 1: the listing goes down the tree, OnlyDefaults by user.
        ListAssocResult.Builder db = ListAssocResult.newBuilder();
        for (String[] u :
                new String[][] {{"helperuser1", "helperacct2"}, {"helperuser2", "helperacct1"}, {"root", "root"}}) {
            db.addUsers(UserEntry.newBuilder().setName(u[0]).setDefaultAccount(u[1]));
        }
        for (String[] a : new String[][] {
            {"root", ""},
            {"root", "root"},
            {"helperacct1", ""},
            {"helperacct1", "helperuser2"},
            {"helperacct3", ""},
            {"helperacct3", "helperuser1"},
            {"helperacct2", ""},
            {"helperacct2", "helperuser1"}
        }) {
            db.addAssociations(AssociationEntry.newBuilder()
                    .setCluster("anchor")
                    .setAccount(a[0])
                    .setUser(a[1]));
        }
        useDb(db.build());
        assertThat(sacctmgr("-n", "-P", "show", "assoc", "onlydefaults", "format=account,user")
                        .out())
                .isEqualTo("helperacct2|helperuser1\nhelperacct1|helperuser2\nroot|root\n");
    }

    @Test
    void associationIdsAndTreeNumbers() {
        assertThat(sacctmgr("show", "assoc", "format=account,user,id,lft,rgt,parentid,parentname")
                        .out())
                .isEqualTo("""
                           Account       User     ID    LFT    RGT ParentID ParentName\s
                        ---------- ---------- ------ ------ ------ -------- ----------\s
                              root                 1      1      4        0           \s
                              root       root      2      2      3        1           \s
                        """);
        assertThat(sacctmgr("-n", "show", "assoc", "2", "format=account,user,id")
                        .out())
                .isEqualTo("      root       root      2 \n");
        assertThat(sacctmgr("-n", "show", "assoc", "id=1", "format=account,user,id")
                        .out())
                .isEqualTo("      root                 1 \n");
        assertThat(sacctmgr("-n", "-P", "show", "assoc", "1, 2", "format=id").out())
                .isEqualTo("1\n2\n");
        assertThat(sacctmgr("show", "assoc", "root", "format=account"))
                .isEqualTo(new Output(1, "", "sacctmgr: error: Invalid value for AssocId (root)\n"));
        assertThat(sacctmgr("show", "assoc", "id=abc", "format=id").err())
                .isEqualTo("sacctmgr: error: Invalid value for AssocId (abc)\n");
        // Each user's association with its default account.
        assertThat(sacctmgr("-n", "-P", "show", "assoc", "onlydefaults", "format=account,user")
                        .out())
                .isEqualTo("root|root\n");
        assertThat(sacctmgr("-s", "show", "account", "root", "format=account,user,id,parentid,lft,rgt")
                        .out())
                .isEqualTo("""
                           Account       User     ID ParentID    LFT    RGT\s
                        ---------- ---------- ------ -------- ------ ------\s
                              root                 1        0      1      4\s
                              root       root      2        1      2      3\s
                        """);
        assertThat(sacctmgr("-n", "show", "cluster", "format=cluster,id,parentid,lft,rgt")
                        .out())
                .isEqualTo("    anchor      0        0      1      4 \n");
    }
}
