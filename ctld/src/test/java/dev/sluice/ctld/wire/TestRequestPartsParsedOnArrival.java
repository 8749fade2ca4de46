package dev.sluice.ctld.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.GresBinding;
import dev.sluice.common.slurm.MailType;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A submission's option text (node lists, GRES, GPU counts and flags, feature constraint, open
 * mode, mail events) is
 * parsed once where it arrives: the scheduler reads the parsed parts, Slurm's echoes read the
 * text as typed, bad text is refused there with Slurm's error for that option.
 */
class TestRequestPartsParsedOnArrival {
    private static JobSpec.Builder spec() {
        return JobSpec.newBuilder()
                .setName("j")
                .setScript(ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
                .setOwner(Identity.newBuilder().setUid(1000).setGid(1000).setUserName("alice"));
    }

    @Test
    void partsAreParsedAndTheirTextKeptAsTyped() {
        JobRequest r = WireMapper.toDomain(spec().setReqNodes("node[3,1-2]")
                .setExcludeNodes("node9")
                .setGresPerNode("gpu:a100:2,mps:50")
                .setGpusPerTask("gpu:h100:1")
                .setConstraint("a100&ib|h100")
                .setOpenMode("append")
                .build());

        assertThat(r.placement().reqNodes().names()).containsExactly("node3", "node1", "node2");
        assertThat(r.placement().reqNodes().text()).isEqualTo("node[3,1-2]");
        assertThat(r.placement().excludeNodes().names()).containsExactly("node9");
        assertThat(r.gres().items())
                .extracting(g -> g.name() + "/" + g.type().orElse("") + "/" + g.count())
                .containsExactly("gpu/a100/2", "mps//50");
        assertThat(r.gpuOptions().gpusPerTask().type()).isEqualTo("h100");
        assertThat(r.gpuOptions().gpusPerTask().count()).isEqualTo(1);
        assertThat(r.placement().constraint().matches(List.of("h100"))).isTrue();
        assertThat(r.placement().constraint().matches(List.of("a100"))).isFalse();
        assertThat(r.io().openMode()).isEqualTo(OpenMode.APPEND);

        JobSpec back = WireMapper.toWire(r);
        assertThat(back.getReqNodes()).isEqualTo("node[3,1-2]");
        assertThat(back.getGresPerNode()).isEqualTo("gpu:a100:2,mps:50");
        assertThat(back.getGpusPerTask()).isEqualTo("gpu:h100:1");
        assertThat(back.getConstraint()).isEqualTo("a100&ib|h100");
        assertThat(back.getOpenMode()).isEqualTo("append");
    }

    @Test
    void nothingGivenIsNothingParsed() {
        JobRequest r = WireMapper.toDomain(spec().build());
        assertThat(r.placement().reqNodes().isEmpty()).isTrue();
        assertThat(r.gres().isEmpty()).isTrue();
        assertThat(r.placement().constraint().isEmpty()).isTrue();
        assertThat(r.gpuOptions().gpus().isGiven()).isFalse();
        assertThat(r.io().openMode()).isEqualTo(OpenMode.NOT_GIVEN);
        assertThat(WireMapper.toWire(r).getOpenMode()).isEmpty();
    }

    @Test
    void badTextIsRefusedWithTheOptionsError() {
        assertThat(refusal(spec().setGresPerNode("gpu::1"))).isEqualTo(ErrorCode.INVALID_GRES);
        assertThat(refusal(spec().setGpus("tesla:x"))).isEqualTo(ErrorCode.INVALID_GRES);
        assertThat(refusal(spec().setConstraint("a100&"))).isEqualTo(ErrorCode.INVALID_FEATURE);
        assertThat(refusal(spec().setReqNodes("node[1-"))).isEqualTo(ErrorCode.INVALID_NODE_NAME);
        assertThat(refusal(spec().setExcludeNodes("node]"))).isEqualTo(ErrorCode.INVALID_NODE_NAME);
        assertThat(refusal(spec().setOpenMode("sideways"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(refusal(spec().setGresFlags("enforce-binding,bogus"))).isEqualTo(ErrorCode.INVALID_GRES);
        assertThat(refusal(spec().setMailType("END,SOMETIMES"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aControlCharacterIsNamedBeforeTheSyntax() {
        assertThatThrownBy(() ->
                        WireMapper.toDomain(spec().setGresPerNode("gpu\n:1").build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid TresPerNode: control character \\n is not allowed");
    }

    @Test
    void gresFlagsAndMailEventsAreParsedAndTravelInSlurmsForm() {
        JobRequest r = WireMapper.toDomain(spec().setGresFlags("Enforce-Binding")
                .setMailType("fail,end")
                .setMailUser("alice")
                .build());

        assertThat(r.gpuOptions().binding()).isEqualTo(GresBinding.ENFORCE);
        assertThat(r.gpuOptions().enforceBinding()).isTrue();
        assertThat(r.mail().types()).containsExactlyInAnyOrder(MailType.END, MailType.FAIL);
        JobSpec back = WireMapper.toWire(r);
        assertThat(back.getGresFlags()).isEqualTo("enforce-binding");
        assertThat(back.getMailType()).isEqualTo("END,FAIL");
        assertThat(back.getMailUser()).isEqualTo("alice");

        JobRequest none = WireMapper.toDomain(spec().build());
        assertThat(none.gpuOptions().binding()).isEqualTo(GresBinding.NOT_GIVEN);
        assertThat(none.gpuOptions().enforceBinding()).isFalse();
        assertThat(none.mail()).isEqualTo(JobRequest.Mail.NONE);
        assertThat(WireMapper.toWire(none).getMailType()).isEmpty();
        assertThat(WireMapper.toWire(none).getGresFlags()).isEmpty();
    }

    @Test
    void aControlCharacterInAParsedFlagIsNamedAsBefore() {
        assertThatThrownBy(() -> WireMapper.toDomain(spec().setMailType("END\n").build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid MailType: control character \\n is not allowed");
        assertThatThrownBy(() -> WireMapper.toDomain(spec().setMailType("EN\tD").build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid MailType: control character \\t is not allowed");
        assertThatThrownBy(() ->
                        WireMapper.toDomain(spec().setGresFlags("enforce\n").build()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid GresFlags: control character \\n is not allowed");
    }

    private static ErrorCode refusal(JobSpec.Builder b) {
        try {
            WireMapper.toDomain(b.build());
        } catch (SlurmException e) {
            return e.code();
        }
        throw new AssertionError("accepted " + b);
    }
}
