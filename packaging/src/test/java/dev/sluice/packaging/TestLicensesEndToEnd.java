package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * slurm.conf's {@code Licenses=} with real daemons: a job short of licenses waits with reason
 * {@code Licenses} while another holds them, {@code scontrol show licenses} counts them, and the
 * waiting job starts once they are given back or it asks for fewer ({@code scontrol update});
 * a license not configured is refused at submit. Only the licenses AccountingStorageTRES names
 * are TRES.
 */
class TestLicensesEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 4, 1);
        Path conf = cluster.layout().slurmConfPath();
        // license/foo is a TRES (AccountingStorageTRES names it); bar is not.
        Files.writeString(conf, Files.readString(conf) + "Licenses=foo:4,bar\nAccountingStorageTRES=license/foo\n");
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String squeue(int id) throws Exception {
        return cluster.command("squeue", "-h", "-j", Integer.toString(id), "-o", "%T %r %W")
                .out();
    }

    @Test
    void aJobWaitsForLicensesAnotherHoldsAndStartsWhenTheyAreBack() throws Exception {
        ClusterProcesses.Result refused = cluster.command("sbatch", "-L", "baz", "--wrap", "true");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err())
                .isEqualTo("sbatch: error: Batch job submission failed: Invalid license specification\n");

        int holder = submit("-L", "foo:3", "-c", "1", "--wrap", "sleep 300");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(squeue(holder)).isEqualTo("RUNNING None foo:3\n"));
        int waiting = submit("-L", "foo:2,bar", "-c", "1", "--wrap", "sleep 300");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(squeue(waiting)).isEqualTo("PENDING Licenses foo:2,bar\n"));
        assertThat(cluster.command("scontrol", "show", "licenses").out()).isEqualTo("""
                        LicenseName=bar
                            Total=1 Used=0 Free=1 Reserved=0 Remote=no
                        LicenseName=foo
                            Total=4 Used=3 Free=1 Reserved=0 Remote=no
                        """);
        assertThat(cluster.command("scontrol", "show", "job", Integer.toString(holder))
                        .out())
                .contains(" Licenses=foo:3 ")
                .containsPattern("\\n   TRES=\\S*license/foo=3\\n");
        assertThat(cluster.command("scontrol", "show", "job", Integer.toString(waiting))
                        .out())
                .contains(" Licenses=foo:2,bar ")
                .doesNotContain("license/bar");

        // Asking for fewer, it fits beside the holder.
        ClusterProcesses.Result update =
                cluster.command("scontrol", "update", "JobId=" + waiting, "Licenses=foo:1,bar");
        assertThat(update.exitCode()).as(update.err()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(squeue(waiting)).isEqualTo("RUNNING None foo:1,bar\n"));
        assertThat(cluster.command("scontrol", "-o", "show", "lic", "bar").out())
                .isEqualTo("LicenseName=bar Total=1 Used=1 Free=0 Reserved=0 Remote=no\n");

        int third = submit("-L", "bar", "-c", "1", "--wrap", "sleep 300");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(squeue(third)).isEqualTo("PENDING Licenses bar\n"));
        cluster.command("scancel", Integer.toString(waiting));
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(squeue(third)).isEqualTo("RUNNING None bar\n"));
        cluster.command("scancel", Integer.toString(holder), Integer.toString(third));
    }
}
