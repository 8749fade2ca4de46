package dev.sluice.noded;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The node daemon's package boundaries (see each package-info). */
class TestArchitecture {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice.noded");
    }

    /**
     * Launch code decides time limits and suspended time from an injected clock (the daemon's
     * server hands it the system one), so tests can move time; waiting with a monotonic
     * deadline (System.nanoTime) is not reading the time of day.
     */
    @Test
    void launchReadsNoWallClock() {
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.noded.launch..")
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(InstantSource.class, "system")
                .orShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .check(classes);
    }
}
