package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.text.RawText;
import dev.sluice.ctld.state.StateRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal written before the batch script and the environment became {@code bytes} on the wire
 * (they were {@code string}; same wire type) still recovers, with the same text. The file under
 * test resources was written by that earlier build's {@code Journal}, a job whose script and
 * environment hold non-ASCII UTF-8.
 */
class TestJournalBeforeBytes {
    private static final String FILE = "journal-00000000000000000001.log";

    @TempDir
    Path dir;

    @Test
    void aJobJournaledWhenScriptsWereStringsComesBackWithItsText() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/persistence/journal-before-bytes/" + FILE)) {
            Files.write(dir.resolve(FILE), in.readAllBytes());
        }
        Journal.Recovered r = Journal.open(dir, false);
        r.journal().close();
        assertThat(r.entries()).hasSize(1);
        var spec = r.entries().get(0).getJobSubmitted().getSpec();
        assertThat(spec.getScript().toString(StandardCharsets.UTF_8)).isEqualTo("#!/bin/sh\necho caf\u00e9\n");
        assertThat(spec.getEnvironmentMap().get("GREETING").toString(StandardCharsets.UTF_8))
                .isEqualTo("d\u00e9j\u00e0 vu");

        StateRecord.JobSubmitted job =
                (StateRecord.JobSubmitted) RecordCodec.decode(r.entries().get(0));
        assertThat(job.jobId()).isEqualTo(42);
        assertThat(job.request().name()).isEqualTo("old");
        assertThat(job.request().launch().script()).isEqualTo("#!/bin/sh\necho caf\u00e9\n");
        assertThat(job.request().launch().environment())
                .containsEntry("GREETING", "d\u00e9j\u00e0 vu")
                .containsEntry("LANG", "fr_FR.UTF-8");
        // And it is journaled again, in the journal's own record, as the same bytes.
        assertThat(RecordCodec.encode(1, job).getJobSubmitted().getRequest().getScript())
                .isEqualTo(spec.getScript());
    }

    @Test
    void aScriptThatIsNotUtf8IsJournaledByteForByte() {
        byte[] latin1 = "#!/bin/sh\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        var request =
                dev.sluice.ctld.Builders.aJob().script(RawText.decode(latin1)).build();
        var entry = RecordCodec.encode(1, new StateRecord.JobSubmitted(1, request, "p", 60, 1));
        assertThat(entry.getJobSubmitted().getRequest().getScript().toByteArray())
                .containsExactly(latin1);
        assertThat(RecordCodec.decode(entry)).isEqualTo(new StateRecord.JobSubmitted(1, request, "p", 60, 1));
    }
}
