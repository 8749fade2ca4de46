package dev.sluice.common.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import org.junit.jupiter.api.Test;

class TestControlCharacters {
    @Test
    void c0DelAndC1AreControlsPrintableTextIsNot() {
        for (char c = 0; c < 0x20; c++) {
            assertThat(ControlCharacters.isControl(c)).as("0x%02x", (int) c).isTrue();
        }
        assertThat(ControlCharacters.isControl('\u007f')).isTrue();
        assertThat(ControlCharacters.isControl('\u009b')).as("CSI").isTrue();
        assertThat(ControlCharacters.find("caf\u00e9 | 50% 'x' \"y\" \\ \u00a0\u4e2d"))
                .isEqualTo(-1);
        assertThat(ControlCharacters.find("ab\ncd")).isEqualTo(2);
    }

    @Test
    void theRefusalNamesTheFieldAndShowsTheCharacterAsCWouldWriteIt() {
        assertThat(ControlCharacters.refusal("JobName", "ok")).isEmpty();
        assertThat(ControlCharacters.refusal("JobName", "a\nb"))
                .contains("Invalid JobName: control character \\n is not allowed");
        assertThat(ControlCharacters.refusal("Comment", "\u001b[2J"))
                .contains("Invalid Comment: control character \\x1b is not allowed");
        assertThat(ControlCharacters.refusal("StdOut", "\0"))
                .contains("Invalid StdOut: control character \\0 is not allowed");
        assertThat(ControlCharacters.refusal("x", "\t")).contains("Invalid x: control character \\t is not allowed");
        assertThat(ControlCharacters.refusal("x", "\r")).contains("Invalid x: control character \\r is not allowed");
    }

    @Test
    void printableShowsEachControlAsAQuestionMark() {
        assertThat(ControlCharacters.printable("a\nb\r\u001bc")).isEqualTo("a?b??c");
        String clean = "nothing to do";
        assertThat(ControlCharacters.printable(clean)).isSameAs(clean);
    }

    @Test
    void checkedTextIsReturnedAndTextWithAControlIsRefusedWithTheReason() {
        assertThat(ControlCharacters.checked("JobName", "fine name")).isEqualTo("fine name");
        assertThatThrownBy(() -> ControlCharacters.checked("Comment", "a\u001bb"))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("Invalid Comment: control character \\x1b is not allowed");
    }
}
