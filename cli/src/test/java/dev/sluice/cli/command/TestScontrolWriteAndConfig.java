package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.ConfigSection;
import dev.sluice.protocol.v1.GetConfigResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code scontrol write batch_script} and {@code show config}, texts as Slurm 22.05's. */
class TestScontrolWriteAndConfig {
    private static final String SCRIPT = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hi\n";

    /** The HASH_VAL the controller answers: its digest of the configuration it runs. */
    private volatile String controllerHash = "";

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_JOBS ->
            ClientResponse.newBuilder()
                    .setGetJobs(GetJobsResponse.newBuilder()
                            .addJobs(Fixtures.job(
                                            33,
                                            Fixtures.wrapSpec()
                                                    .setScript(com.google.protobuf.ByteString.copyFromUtf8(
                                                            req.getGetJobs().getIncludeScript() ? SCRIPT : "")),
                                            dev.sluice.protocol.v1.JobState.PENDING)
                                    .build())
                            // 34 is an allocation (salloc): it has no script.
                            .addJobs(Fixtures.job(
                                            34,
                                            Fixtures.wrapSpec().setScript(com.google.protobuf.ByteString.EMPTY),
                                            dev.sluice.protocol.v1.JobState.RUNNING)
                                    .build()))
                    .build();
        case GET_CONFIG ->
            ClientResponse.newBuilder()
                    .setGetConfig(GetConfigResponse.newBuilder()
                            .addEntries(ConfigEntry.newBuilder()
                                    .setKey("ClusterName")
                                    .setValue("anchor"))
                            .addEntries(ConfigEntry.newBuilder()
                                    .setKey("SlurmctldHost[0]")
                                    .setValue("vm(127.0.0.1)"))
                            .addEntries(ConfigEntry.newBuilder()
                                    .setKey("AccountingStorageBackupHost")
                                    .setValue("(null)"))
                            .addEntries(ConfigEntry.newBuilder()
                                    .setKey("BOOT_TIME")
                                    .setTime(java.time.Instant.parse("2026-11-29T08:00:00Z")
                                            .getEpochSecond()))
                            .addEntries(
                                    ConfigEntry.newBuilder().setKey("HASH_VAL").setValue(controllerHash))
                            .addEntries(ConfigEntry.newBuilder()
                                    .setKey("PowerPlugin")
                                    .setValue(""))
                            .addSections(ConfigSection.newBuilder()
                                    .setTitle("Cgroup Support Configuration:")
                                    .addEntries(ConfigEntry.newBuilder()
                                            .setKey("AllowedRAMSpace")
                                            .setValue("100.0%"))))
                    .build();
        case PING -> Answers.ping();
        default -> throw new AssertionError(req.getBodyCase());
    });

    @BeforeEach
    void start() throws Exception {
        controllerHash = ShowConfig.hash(SlurmConfReader.read(cli.dir().resolve("slurm.conf")));
    }

    private Output scontrol(String... args) {
        return cli.run(new ScontrolCommand(), args);
    }

    @Test
    void writeBatchScript() throws IOException {
        assertThat(scontrol("write", "batch_script", "33"))
                .isEqualTo(new Output(0, "batch script for job 33 written to slurm-33.sh\n", ""));
        assertThat(Files.readString(cli.dir().resolve("slurm-33.sh"))).isEqualTo(SCRIPT);
        assertThat(cli.controller().requests().get(0).getGetJobs().getIncludeScript())
                .isTrue();
        assertThat(scontrol("write", "batch_script", "33", "x.sh"))
                .isEqualTo(new Output(0, "batch script for job 33 written to x.sh\n", ""));
        assertThat(scontrol("write", "batch_script", "33", "-")).isEqualTo(new Output(0, SCRIPT, ""));
    }

    @Test
    void writeBatchScriptQuirks() {
        // Slurm 22.05 exits 0 for an unknown job, and prints nothing without a job id.
        assertThat(scontrol("write", "batch_script", "99"))
                .isEqualTo(new Output(0, "", "job script retrieval failed: Invalid job id specified\n"));
        assertThat(scontrol("write", "batch_script")).isEqualTo(new Output(0, "", ""));
        assertThat(scontrol("write", "batch_script", "34", "-"))
                .isEqualTo(new Output(0, "", "job script retrieval failed: Job script not specified\n"));
        assertThat(scontrol("write", "bogus")).isEqualTo(new Output(1, "", "invalid write argument:bogus\n"));
    }

    @Test
    void showConfigPadsKeysAndEndsWithPing() {
        // BOOT_TIME prints in the command's zone; HASH_VAL compares the controller's digest with
        // the command's own; sections follow the settings after a blank line.
        assertThat(scontrol("show", "config"))
                .isEqualTo(new Output(
                        0,
                        "Configuration data as of 2026-11-29T08:47:04\n"
                                + "ClusterName             = anchor\n"
                                + "SlurmctldHost[0]        = vm(127.0.0.1)\n"
                                + "AccountingStorageBackupHost = (null)\n"
                                + "BOOT_TIME               = 2026-11-29T08:00:00\n"
                                + "HASH_VAL                = Match\n"
                                + "PowerPlugin             = \n"
                                + "\n"
                                + "Cgroup Support Configuration:\n"
                                + "AllowedRAMSpace         = 100.0%\n"
                                + "\n"
                                + "Slurmctld(primary) at ctl is UP\n",
                        ""));
    }

    @Test
    void showConfigSaysWhenTheControllerReadsAnotherConfiguration() throws Exception {
        String ours = controllerHash;
        controllerHash = "0x8976c7b6";
        assertThat(scontrol("show", "config").out())
                .contains("HASH_VAL                = Different Ours=" + ours + " Slurmctld=0x8976c7b6\n");
    }
}
