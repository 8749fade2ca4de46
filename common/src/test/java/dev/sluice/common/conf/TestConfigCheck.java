package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestConfigCheck {

    @TempDir
    Path dir;

    record Result(int rc, String out, String err) {}

    Result check(Path file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ConfigCheck.run(file, new PrintStream(out), new PrintStream(err));
        return new Result(rc, out.toString(), err.toString());
    }

    @Test
    void reportsWhatWasUnderstood() throws Exception {
        Files.writeString(dir.resolve("slurm.conf"), """
                ClusterName=lab
                SlurmctldHost=ctl
                GresTypes=gpu
                MailProg=/usr/bin/mail
                NodeName=n[1-2] CPUs=8 RealMemory=16000 Gres=gpu:3
                PartitionName=all Nodes=ALL Default=YES
                PartitionName=slurm-bridge Nodes=n1 MaxTime=UNLIMITED
                """);
        Files.writeString(dir.resolve("gres.conf"), "AutoDetect=off\nName=gpu Count=3 File=/fakegpu/gpu[0-2]\n");
        Result r = check(dir.resolve("slurm.conf"));
        assertThat(r.rc()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out())
                .contains("ClusterName=lab")
                .contains("Nodes (2):")
                .contains("n[1-2] CPUs=8 ")
                .contains("Gres=gpu:3")
                .contains("all* Nodes=n[1-2] MaxTime=UNLIMITED State=UP")
                .contains("n[1-2] gpu:3(/fakegpu/gpu[0-2])")
                .contains(":4: MailProg=/usr/bin/mail");
    }

    @Test
    void reportsTheFirstErrorWithItsLocation() throws Exception {
        Path f = dir.resolve("slurm.conf");
        Files.writeString(f, "ClusterName=lab\nSlurmctldHost=ctl\nNodeNmae=n1\n");
        Result r = check(f);
        assertThat(r.rc()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .startsWith("sluice-ctld: error: " + f + ":3: unknown key \"NodeNmae\" (did you mean \"NodeName\"?)");
    }

    @Test
    void aBadGresConfNextToSlurmConfFailsTheCheck() throws Exception {
        Files.writeString(dir.resolve("slurm.conf"), "ClusterName=lab\nSlurmctldHost=ctl\n");
        Files.writeString(dir.resolve("gres.conf"), "Name=gpu File=/dev/x[0-1] Count=5\n");
        Result r = check(dir.resolve("slurm.conf"));
        assertThat(r.rc()).isEqualTo(1);
        assertThat(r.err()).contains("gres.conf:1: Invalid GRES record for gpu");
    }

    @Test
    void missingFile() {
        Result r = check(dir.resolve("nope.conf"));
        assertThat(r.rc()).isEqualTo(1);
        assertThat(r.err()).contains("nope.conf: No such file or directory");
    }

    @Test
    void includesAreRelativeToTheConfigDirectoryAndGlobbed() throws Exception {
        Files.createDirectories(dir.resolve("parts"));
        Files.writeString(dir.resolve("slurm.conf"), "ClusterName=lab\nSlurmctldHost=ctl\nInclude parts/*.conf\n");
        Files.writeString(dir.resolve("parts/a.conf"), "NodeName=a1\n");
        Files.writeString(dir.resolve("parts/b.conf"), "PartitionName=p Nodes=a1\n");
        Result r = check(dir.resolve("slurm.conf"));
        assertThat(r.rc()).as(r.err()).isZero();
        assertThat(r.out()).contains("p Nodes=a1");
    }

    @Test
    void warnsAboutGresThatSlurmWouldNotSchedule() throws Exception {
        Files.writeString(dir.resolve("slurm.conf"), """
                ClusterName=lab
                SlurmctldHost=ctl
                NodeName=n[1-2] Gres=gpu:2
                PartitionName=p Nodes=ALL
                """);
        Files.writeString(
                dir.resolve("gres.conf"), "NodeName=n1 Name=gpu File=/dev/g[0-2]\nNodeName=x9 Name=gpu File=/dev/g0\n");
        Result r = check(dir.resolve("slurm.conf"));
        assertThat(r.rc()).isZero();
        assertThat(r.out())
                .contains("node n1 has Gres gpu that is not in GresTypes")
                .contains("node n1: slurm.conf says gpu=2 but gres.conf has 3")
                .contains("gres.conf:2: NodeName x9 is not defined in slurm.conf");
    }
}
