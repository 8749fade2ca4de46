package dev.sluice.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TestFrames {
    /** About what squeue's answer weighs with 100,000 jobs queued (17 MiB). */
    private static final BytesValue BIG = BytesValue.of(ByteString.copyFrom(new byte[18 * 1024 * 1024]));

    @Test
    void anAnswerLargerThanAnyRequestGoesThrough() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Frames.writeAnswer(BIG, out);
        BytesValue back = Frames.readAnswer(BytesValue.parser(), new ByteArrayInputStream(out.toByteArray()));
        assertThat(back.getValue().size()).isEqualTo(BIG.getValue().size());
    }

    @Test
    void aServerRefusesARequestThatLargeBeforeReadingIt() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Frames.writeAnswer(BIG, out);
        assertThatThrownBy(() -> Frames.read(BytesValue.parser(), new ByteArrayInputStream(out.toByteArray())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("outside 0.." + Frames.MAX_FRAME_BYTES);
        assertThatThrownBy(() -> Frames.write(BIG, new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exceeds the limit of " + Frames.MAX_FRAME_BYTES);
    }

    @Test
    void aLengthPrefixBeyondTheAnswerLimitIsRefusedWithoutAllocating() {
        // varint of 2^31 - 1: more than any frame may hold, refused from its prefix alone.
        byte[] prefix = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};
        assertThatThrownBy(() -> Frames.readAnswer(BytesValue.parser(), new ByteArrayInputStream(prefix)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("outside 0.." + Frames.MAX_ANSWER_BYTES);
    }
}
