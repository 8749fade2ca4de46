package dev.sluice.ctld.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.MailType;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * --mail-* and --signal survive the journal's wire form and the copies the controller makes
 * (scontrol update, accounting's account/QOS resolution).
 */
class TestMailAndSignalKept {
    private static final JobSpec SPEC = JobSpec.newBuilder()
            .setName("j")
            .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
            .setOwner(Identity.newBuilder().setUid(1000).setGid(1000).setUserName("alice"))
            .setMailType("END,FAIL")
            .setMailUser("alice@example.org")
            .setWarnSignal(10)
            .setWarnSeconds(30)
            .setWarnBatchOnly(true)
            .build();

    @Test
    void wireRoundTripKeepsThem() {
        JobSpec back = WireMapper.toWire(WireMapper.toDomain(SPEC));
        assertThat(back.getMailType()).isEqualTo("END,FAIL");
        assertThat(back.getMailUser()).isEqualTo("alice@example.org");
        assertThat(back.getWarnSignal()).isEqualTo(10);
        assertThat(back.getWarnSeconds()).isEqualTo(30);
        assertThat(back.getWarnBatchOnly()).isTrue();
    }

    @Test
    void copiesKeepThem() {
        JobRequest r = WireMapper.toDomain(SPEC);
        for (JobRequest copy :
                new JobRequest[] {r.withAccounting("physics", "normal"), r.withDescription("k", "c", 5)}) {
            assertThat(copy.mail())
                    .isEqualTo(new JobRequest.Mail(Set.of(MailType.END, MailType.FAIL), "alice@example.org"));
            assertThat(copy.warnSignal()).isEqualTo(new JobRequest.WarnSignal(10, 30, true));
        }
    }
}
