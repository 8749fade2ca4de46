package dev.sluice.cli.command.sacct;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AccountedJob;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What sacctmgr modify job sets, as sacct prints it: Comment, AdminComment and SystemComment
 * (blank until set, compat 293) and {@code --json}'s {@code comment} (null until set).
 */
class TestSacctJobComments {
    @TempDir
    Path dir;

    private Output sacct(List<AccountedJob> jobs, String... args) throws Exception {
        try (FakeDbd dbd = FakeDbd.jobs(jobs)) {
            Map<String, String> env = TestingInvocations.accountingConf(
                    dir,
                    dbd.port(),
                    "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN",
                    "PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP");
            return TestSacctOptions.sacct(env, dir, args);
        }
    }

    @Test
    void theCommentsAreShownOnceSet() throws Exception {
        AccountedJob plain = SacctFixtures.jobs().get(0);
        AccountedJob commented = plain.toBuilder()
                .setComment("looks fine")
                .setAdminComment("adm")
                .setSystemComment("sys")
                .setDerivedExitStatus(256)
                .build();
        String ask = "-X -P -o Comment,AdminComment,SystemComment,DerivedExitCode";
        assertThat(sacct(List.of(plain), ask.split(" ")).out()).endsWith("\n|||0:0\n");
        assertThat(sacct(List.of(commented), ask.split(" ")).out()).endsWith("\nlooks fine|adm|sys|1:0\n");

        String json = sacct(List.of(commented), "--json").out();
        assertThat(json.replaceAll("\\s+", ""))
                .contains("\"comment\":{\"administrator\":\"adm\",\"job\":\"looksfine\",\"system\":\"sys\"}");
        assertThat(sacct(List.of(plain), "--json").out().replaceAll("\\s+", ""))
                .contains("\"comment\":{\"administrator\":null,\"job\":null,\"system\":null}");
    }
}
