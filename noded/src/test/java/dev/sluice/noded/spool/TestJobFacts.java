package dev.sluice.noded.spool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.files.OwnerOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJobFacts {
    @TempDir
    Path dir;

    record Fact(String name, String value) {
        String line() {
            return name + "=" + value + "\n";
        }
    }

    @Provide
    Arbitrary<List<Fact>> histories() {
        return Combinators.combine(
                        Arbitraries.of("job.pid", "wait_status", "exit", "end_state", "supervisor.done"),
                        Arbitraries.strings().withChars("0123456789ABC_").ofMaxLength(6))
                .as(Fact::new)
                .list()
                .ofMaxSize(12);
    }

    /**
     * Whatever was appended and wherever a crash cut the file, each fact reads as the last value
     * whose whole line came before the cut, or not at all: never a value cut short.
     */
    @Property
    void aFactReadsAsTheLastWholeLineWrittenForIt(
            @ForAll("histories") List<Fact> written, @ForAll @IntRange(max = 400) int cut) {
        byte[] all = String.join("", written.stream().map(Fact::line).toList()).getBytes(StandardCharsets.US_ASCII);
        int at = Math.min(cut, all.length);
        byte[] kept = java.util.Arrays.copyOf(all, at);
        Map<String, String> whole = new HashMap<>();
        int length = 0;
        for (Fact f : written) {
            length += f.line().length();
            if (length <= at) {
                whole.put(f.name(), f.value());
            }
        }
        Path nowhere = Path.of("/nonexistent", "job00001");
        JobFacts read = JobFacts.parse(nowhere, kept);
        for (String name : List.of("job.pid", "wait_status", "exit", "end_state", "supervisor.done")) {
            assertThat(read.has(name)).as(name).isEqualTo(whole.containsKey(name));
            assertThat(read.value(name))
                    .as(name)
                    .isEqualTo(Optional.ofNullable(whole.get(name)).filter(v -> !v.isEmpty()));
        }
    }

    @Test
    void appendedFactsShareOneOwnerOnlyFileAndTheLastValueCounts() throws Exception {
        JobFacts.append(dir, "job.pid", "41");
        JobFacts.append(dir, "supervisor.done", "");
        JobFacts.append(dir, "job.pid", "42");
        assertThat(dir.toFile().list()).containsExactly(JobFacts.FILE);
        assertThat(Files.getPosixFilePermissions(dir.resolve(JobFacts.FILE))).isEqualTo(OwnerOnly.FILE_MODE);
        JobFacts facts = JobFacts.of(dir);
        assertThat(facts.value("job.pid")).contains("42");
        assertThat(facts.has("supervisor.done")).isTrue();
        assertThat(facts.value("supervisor.done")).isEmpty();
        assertThat(facts.has("exit")).isFalse();
    }

    @Test
    void aJobAnEarlierVersionStartedKeepsItsFactsAFileEach() throws Exception {
        // Its supervisor, still running, writes them so; what this daemon adds goes to the file.
        Files.writeString(dir.resolve("exit"), "3\n");
        Files.writeString(dir.resolve("supervisor.done"), "");
        JobFacts.append(dir, "end_state", "CANCELLED");
        JobFacts facts = JobFacts.of(dir);
        assertThat(facts.value("exit")).contains("3");
        assertThat(facts.has("supervisor.done")).isTrue();
        assertThat(facts.value("end_state")).contains("CANCELLED");
        assertThat(facts.has("wait_status")).isFalse();
    }

    @Test
    void aJobAnEarlierVersionStartedGetsTheDaemonsFactsAsFilesItsSupervisorReads() throws Exception {
        JobSpool spool = new JobSpool(dir.resolve("spool"));
        Path legacy = Files.createDirectories(spool.jobDir(3));
        Files.writeString(legacy.resolve("supervisor.pid"), "4321\n");
        spool.writeFact(3, "end_state", "CANCELLED");
        spool.writeFact(4, "end_state", "TIMEOUT");

        assertThat(legacy.resolve("end_state")).hasContent("CANCELLED");
        assertThat(spool.fact(3, "end_state")).contains("CANCELLED");
        assertThat(spool.jobDir(4).toFile().list()).containsExactly(JobFacts.FILE);
        assertThat(spool.fact(4, "end_state")).contains("TIMEOUT");
    }

    @Test
    void aFactThatWouldSpanLinesIsRefusedAndNothingIsWritten() {
        assertThatThrownBy(() -> JobFacts.append(dir, "exit", "1\nwait_status=0"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JobFacts.append(dir, "a=b", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThat(dir.resolve(JobFacts.FILE)).doesNotExist();
    }
}
