package dev.sluice.common.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TestRawText {

    @Property
    void everyByteStringComesBackExactly(@ForAll @Size(max = 64) byte[] bytes) {
        assertThat(RawText.encode(RawText.decode(bytes))).containsExactly(bytes);
    }

    @Property
    void validUtf8DecodesAsTheJdkDoes(@ForAll @Size(max = 40) String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        // Lone surrogates in a random String become '?' in getBytes: compare with what they became.
        String jdk = new String(utf8, StandardCharsets.UTF_8);
        assertThat(RawText.decode(utf8)).isEqualTo(jdk);
        assertThat(RawText.hasEscapes(jdk)).isFalse();
        assertThat(RawText.encode(jdk)).containsExactly(utf8);
    }

    @Test
    void aLatin1ByteIsKeptAndShownAsReplacementInText() {
        byte[] latin1 = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
        String raw = RawText.decode(latin1);
        assertThat(raw).hasSize(4).startsWith("caf");
        assertThat(RawText.hasEscapes(raw)).isTrue();
        assertThat(RawText.toText(raw)).isEqualTo("caf\uFFFD");
        assertThat(RawText.encode(raw)).containsExactly('c', 'a', 'f', 0xe9);
    }

    @Test
    void illFormedSequencesAreEscapedByteByByte() {
        // An overlong '/', an encoded surrogate, a truncated 3-byte sequence, a byte above F4.
        byte[] bad = {
            (byte) 0xc0, (byte) 0xaf, (byte) 0xed, (byte) 0xa0, (byte) 0x80, (byte) 0xe2, (byte) 0x82, 'x', (byte) 0xf5
        };
        String raw = RawText.decode(bad);
        assertThat(raw).hasSize(bad.length);
        assertThat(raw.charAt(7)).isEqualTo('x');
        assertThat(RawText.encode(raw)).containsExactly(bad);
    }

    @Test
    void aSupplementaryCharacterNextToAnEscapeStaysOneCharacter() {
        byte[] bytes = {(byte) 0xf0, (byte) 0x90, (byte) 0x82, (byte) 0x80, (byte) 0xff};
        String raw = RawText.decode(bytes);
        assertThat(raw.codePointAt(0)).isEqualTo(0x10080);
        assertThat(RawText.encode(raw)).containsExactly(bytes);
        assertThat(RawText.toText(raw)).isEqualTo(new String(Character.toChars(0x10080)) + "\uFFFD");
    }
}
