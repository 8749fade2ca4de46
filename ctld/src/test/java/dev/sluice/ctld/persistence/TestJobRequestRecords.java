package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.journal.JobSubmittedRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The journal keeps a job's request in a record of its own, not the commands' JobSpec; entries
 * written before, with the JobSpec, still come back as the same request.
 */
class TestJobRequestRecords {
    /** Every option a request keeps, each with a value that is not its default. */
    private static final JobSpec EVERYTHING = JobSpec.newBuilder()
            .setName("train")
            .setScript(ByteString.copyFromUtf8("#!/bin/sh\nsrun python train.py\n"))
            .addScriptArgs("--epochs=3")
            .setWorkDir("/home/kim")
            .putEnvironment("PATH", ByteString.copyFromUtf8("/usr/bin"))
            .setMinNodes(2)
            .setMaxNodes(3)
            .setNumTasks(8)
            .setCpusPerTask(2)
            .setNtasksPerNode(4)
            .setPartition("gpu")
            .setTimeLimitMinutes(90)
            .setStdOut("out-%j")
            .setStdErr("err-%j")
            .setStdIn("/dev/null")
            .setOwner(Identity.newBuilder().setUid(1001).setGid(1001).setUserName("kim"))
            .setSubmitHost("login1")
            .setExclusive(true)
            .setMemPerCpuMb(512)
            .setReqNodes("n[1-2]")
            .setExcludeNodes("n9")
            .setAccount("physics")
            .setComment("a comment")
            .setHold(true)
            .setGresPerNode("gpu:a100:2")
            .setConstraint("a100&ib")
            .setRequeue(true)
            .setOpenMode("append")
            .setNice(10)
            .setQos("high")
            .setCommand("/home/kim/train.sh")
            .setGpus("4")
            .setGpusPerTask("a100:1")
            .setCpusPerGpu(4)
            .setMemPerGpuMb(1024)
            .setGresFlags("enforce-binding")
            .setArray("0-15%4")
            .setDependency("afterok:7:8")
            .setKillOnInvalidDep(true)
            .setBeginTime(1_700_000_000L)
            .setWarnSignal(10)
            .setWarnSeconds(60)
            .setWarnBatchOnly(true)
            .setMailType("END,FAIL")
            .setMailUser("kim@example.org")
            .setLicenses("matlab:2")
            .setReservation("maint")
            .build();

    @Test
    void aJobsWckeySurvivesTheJournalAsksOrTakenByDefault() {
        for (JobWckey wckey :
                List.of(JobWckey.asked("w218b"), JobWckey.userDefault("w218a"), JobWckey.userDefault(""))) {
            var request =
                    WireMapper.toDomain(EVERYTHING).toBuilder().wckey(wckey).build();
            var submitted = new StateRecord.JobSubmitted(7, request, "gpu", 90, 1_700_000_000L);
            JournalEntry entry = RecordCodec.encode(5, submitted);
            assertThat(entry.getJobSubmitted().getRequest().getWckey()).isEqualTo(wckey.text());
            assertThat(RecordCodec.decode(entry)).isEqualTo(submitted);
        }
        // The commands' --wckey reaches the controller as asked, never as a default.
        assertThat(WireMapper.toDomain(EVERYTHING.toBuilder().setWckey("w218b").build())
                        .wckey())
                .isEqualTo(JobWckey.asked("w218b"));
    }

    @Test
    void aRequestIsJournaledInItsOwnRecordAndComesBackTheSame() {
        var submitted = new StateRecord.JobSubmitted(7, WireMapper.toDomain(EVERYTHING), "gpu", 90, 1_700_000_000L);
        JournalEntry entry = RecordCodec.encode(5, submitted);
        assertThat(entry.getJobSubmitted().hasSpec()).isFalse();
        assertThat(entry.getJobSubmitted().getRequest().getGres()).isEqualTo("gpu:a100:2");
        assertThat(entry.getJobSubmitted().getRequest().getDependency()).isEqualTo("afterok:7:8");
        // Parsed parts are journaled in the wire's words, which older records hold too.
        assertThat(entry.getJobSubmitted().getRequest().getMailType()).isEqualTo("END,FAIL");
        assertThat(entry.getJobSubmitted().getRequest().getGresFlags()).isEqualTo("enforce-binding");
        assertThat(RecordCodec.decode(entry)).isEqualTo(submitted);
    }

    @Test
    void anEntryWrittenWithTheCommandsJobSpecStillReads() {
        JournalEntry old = JournalEntry.newBuilder()
                .setSequence(5)
                .setTime(1_700_000_000L)
                .setJobSubmitted(JobSubmittedRecord.newBuilder()
                        .setJobId(7)
                        .setSpec(EVERYTHING)
                        .setPartition("gpu")
                        .setTimeLimitMinutes(90))
                .build();
        assertThat(RecordCodec.decode(old))
                .isEqualTo(new StateRecord.JobSubmitted(7, WireMapper.toDomain(EVERYTHING), "gpu", 90, 1_700_000_000L));
    }

    @Test
    void aRequestWithNothingGivenComesBackTheSame() {
        JobSpec bare = JobSpec.newBuilder()
                .setScript(ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
                .setOwner(Identity.newBuilder().setUid(0).setGid(0).setUserName("root"))
                .build();
        var submitted = new StateRecord.JobSubmitted(1, WireMapper.toDomain(bare), "debug", 0, 1);
        assertThat(RecordCodec.decode(RecordCodec.encode(1, submitted))).isEqualTo(submitted);
    }
}
