package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * No wide positional records in the daemons, commands and REST server: a record of more than
 * {@link #MOST} components is a call site of same-typed arguments in a row, which the compiler
 * cannot check; such data is grouped into sub-records (and built with a builder where callers
 * set a few parts).
 */
class TestRecordShapes {
    static final int MOST = 12;

    /** Records whose width is a file format's, field for field (with the reason). */
    private static final Map<String, String> FORMAT_ROWS = Map.of(
            "dev.sluice.packaging.replay.SwfJob", "one line of the Standard Workload Format: its 18 fields in order");

    @Test
    void noMainRecordHasMoreThanTwelveComponents() {
        Map<String, Integer> wide = new TreeMap<>();
        int records = 0;
        for (JavaClass c : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // The modules' test jars (restd's fixtures) are test code too.
                .withImportOption(location -> !location.contains("-tests.jar"))
                // Generated protocol classes hold no records and are most of the bytes to read.
                .withImportOption(
                        location -> !location.contains("sluice-protocol") && !location.contains("/protocol/target/"))
                .importPackages("dev.sluice")) {
            if (!c.isRecord()) {
                continue;
            }
            records++;
            int components = c.reflect().getRecordComponents().length;
            if (components > MOST && !FORMAT_ROWS.containsKey(c.getName())) {
                wide.put(c.getName(), components);
            }
        }
        // The import found the modules' classes (jars or directories on the class path), not nothing.
        assertThat(records).isGreaterThan(300);
        assertThat(wide).isEmpty();
    }
}
