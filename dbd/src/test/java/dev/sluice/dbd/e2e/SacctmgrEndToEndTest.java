package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dbd.e2e.UserCommands.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * sacctmgr against a real dbd, compared with {@code golden/sacctmgr-*.txt}: the unedited stdout
 * of real sacctmgr 22.05 (up.sh ACCT=1, cluster anchor) for the same sequence of commands, run
 * on 2026-11-29 after {@code add account chem} and {@code add user bob account=chem}.
 */
class SacctmgrEndToEndTest extends AgainstRealDbd {

    private static String golden(String name) throws IOException {
        try (InputStream in = SacctmgrEndToEndTest.class.getResourceAsStream("/golden/sacctmgr-" + name + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private void assertGolden(String name, String stdin, String... args) throws IOException {
        assertThat(sacctmgr(stdin, args)).isEqualTo(new Run(0, golden(name), ""));
    }

    @Test
    void theSameSessionPrintsWhatRealSacctmgrPrinted() throws Exception {
        assertThat(sacctmgr("", "-i", "add", "cluster", "anchor").out())
                .isEqualTo(" Adding Cluster(s)\n  Name           = anchor\n");
        assertThat(sacctmgr("", "-i", "add", "account", "chem").rc()).isZero();
        assertThat(sacctmgr("", "-i", "add", "user", "bob", "account=chem").rc())
                .isZero();

        assertGolden(
                "geo-add",
                "",
                "-i",
                "add",
                "account",
                "geo",
                "maxjobs=5",
                "maxwall=1-00:00:00",
                "grptres=cpu=10",
                "fairshare=3");
        assertGolden("geo-assoc", "", "show", "assoc", "where", "account=geo");
        assertGolden("geo-del", "", "-i", "delete", "account", "geo");
        assertGolden(
                "physics", "", "-i", "add", "account", "physics", "Description=Physics dept", "Organization=science");
        assertGolden("alice", "", "-i", "add", "user", "alice", "Account=physics");
        assertGolden("accounts", "", "show", "account");
        assertGolden("users", "", "show", "user");
        assertGolden("assoc-P", "", "-P", "show", "assoc", "format=cluster,account,user,share,maxjobs");
        // Without -i the answer "n" discards the change.
        assertGolden("geo-n", "n\n", "add", "account", "geo");
        assertThat(sacctmgr("", "-n", "show", "account", "geo").out()).isEmpty();
    }

    @Test
    void refusalsAsSacctmgrWordsThem() {
        sacctmgr("", "-i", "add", "cluster", "anchor");
        assertThat(sacctmgr("", "-i", "add", "account", "chem").rc()).isZero();
        assertThat(sacctmgr("", "-i", "add", "account", "chem")).isEqualTo(new Run(1, " Nothing new added.\n", ""));
        assertThat(sacctmgr("", "-i", "add", "user", "bob", "account=nosuch"))
                .isEqualTo(new Run(
                        1,
                        "",
                        " This account 'nosuch' doesn't exist.\n        Contact your admin to add this account.\n"
                                + " No associations or wckeys created.\n"));
        assertThat(sacctmgr("", "-i", "add", "account", "x", "parent=nosuch"))
                .isEqualTo(new Run(
                        1,
                        "",
                        " Parent account 'nosuch' doesn't exist on cluster anchor\n"
                                + "        Contact your admin to add this account.\n No associations created.\n"));
        assertThat(sacctmgr("", "-i", "delete", "user", "nobody")).isEqualTo(new Run(1, " Nothing deleted\n", ""));
        assertThat(sacctmgr("", "-i", "add", "account", "geo", "bogus=1"))
                .isEqualTo(new Run(1, "", " Unknown option: bogus=1\n Use keyword 'where' to modify condition\n"));
        assertThat(sacctmgr("", "frob", "account")).isEqualTo(new Run(1, "", "invalid keyword: frob\n"));
        assertThat(sacctmgr("", "show", "bogus").err()).startsWith("No valid entity in list command\n");
    }

    /** As real Slurm 22.05 (compat 197): a user whose last association goes is deleted too. */
    @Test
    void aUserLeftWithoutAssociationsGoesToo() {
        sacctmgr("", "-i", "add", "cluster", "anchor");
        sacctmgr("", "-i", "add", "account", "chem");
        sacctmgr("", "-i", "add", "account", "phys");
        sacctmgr("", "-i", "add", "user", "bob", "account=chem");
        sacctmgr("", "-i", "add", "user", "bob", "account=phys");
        assertThat(sacctmgr("", "-i", "delete", "user", "bob", "account=phys"))
                .isEqualTo(new Run(
                        0, " Deleting user associations...\n  C = anchor     A = phys       U = bob      \n", ""));
        assertThat(sacctmgr("", "-n", "-P", "show", "user", "format=user").out())
                .contains("bob\n");
        // Asked and answered no: the user stays with its association.
        assertThat(sacctmgr("n\n", "delete", "user", "bob", "account=chem").out())
                .startsWith(" Deleting user associations...\n  C = anchor     A = chem       U = bob      \n"
                        + " Deleting users (No Associations)...\n  bob\n");
        assertThat(sacctmgr("", "-n", "-P", "show", "user", "format=user").out())
                .contains("bob\n");
        assertThat(sacctmgr("", "-i", "delete", "user", "bob", "account=chem"))
                .isEqualTo(new Run(
                        0,
                        " Deleting user associations...\n  C = anchor     A = chem       U = bob      \n"
                                + " Deleting users (No Associations)...\n  bob\n",
                        ""));
        assertThat(sacctmgr("", "-n", "-P", "show", "user", "format=user").out())
                .doesNotContain("bob");
    }
}
