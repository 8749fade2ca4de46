package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ListWckeysResult;
import dev.sluice.protocol.v1.WckeyEntry;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sacctmgr's wckey lines end to end against a fake sluice-dbd, in real 22.05's words (compat 207-209). */
class TestSacctmgrWckeyCommands {
    @TempDir
    Path dir;

    private SacctmgrAgainstFakeDbd fake;
    private FakeDbd dbd;

    @BeforeEach
    void start() throws Exception {
        ListWckeysResult listed = ListWckeysResult.newBuilder()
                .addWckeys(WckeyEntry.newBuilder()
                        .setId(1)
                        .setName("w208")
                        .setCluster("anchor")
                        .setUser("sluiceuser1"))
                .addWckeys(WckeyEntry.newBuilder()
                        .setId(3)
                        .setName("w208b")
                        .setCluster("anchor")
                        .setUser("sluiceuser2"))
                .build();
        fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setListedWckeys(listed));
        dbd = fake.dbd;
    }

    @AfterEach
    void stop() throws Exception {
        fake.close();
    }

    private Output sacctmgr(String... args) {
        return fake.run(args);
    }

    @Test
    void showWckeyPrintsWckeysOwnColumns() {
        assertThat(sacctmgr("show", "wckey"))
                .isEqualTo(new Output(
                        0,
                        "     WCKey    Cluster       User \n"
                                + "---------- ---------- ---------- \n"
                                + "      w208     anchor sluiceuse+ \n"
                                + "     w208b     anchor sluiceuse+ \n",
                        ""));
        // The fake answers every listing alike: the condition travels to sluice-dbd, which applies it.
        assertThat(sacctmgr("-P", "-n", "list", "wckeys", "users=sluiceuser2", "format=user,wckey,id"))
                .isEqualTo(new Output(0, "sluiceuser1|w208|1\nsluiceuser2|w208b|3\n", ""));
        assertThat(dbd.requests())
                .last()
                .satisfies(r -> assertThat(r.getListWckeys().getUsersList()).containsExactly("sluiceuser2"));
    }

    @Test
    void addDeleteAndModifyNameNoWckeyEntityAndAskNothing() {
        String change = "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\", \"QOS\","
                + " \"Resource\", or \"User\"\n";
        assertThat(sacctmgr("add", "wckey", "w209"))
                .isEqualTo(new Output(1, "", "No valid entity in add command\n" + change));
        assertThat(sacctmgr("delete", "wckey", "w209"))
                .isEqualTo(new Output(1, "", "No valid entity in delete command\n" + change));
        assertThat(sacctmgr("modify", "wckey", "w209", "set", "name=x"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "No valid entity in modify command\nInput line must include \"Account\", \"Cluster\","
                                + " \"Federation\", \"Job\", \"QOS\", \"Resource\" or \"User\"\n"));
        assertThat(dbd.requests()).isEmpty();
    }
}
