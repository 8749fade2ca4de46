package dev.sluice.common;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The parsing and formatting packages are pure: no threads, no wall clock, no network. File access
 * is allowed only in the conf package's readers (config files and their includes).
 */
class TestDomainPurity {

    static final String[] PURE = {
        "dev.sluice.common.hostlist..", "dev.sluice.common.time..", "dev.sluice.common.units..",
        "dev.sluice.common.gres..", "dev.sluice.common.tres..", "dev.sluice.common.conf..",
        "dev.sluice.common.text.."
    };

    final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.sluice.common");

    @Test
    void noThreadsClocksOrNetwork() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.grpc..", "io.netty..", "java.net..", "java.util.concurrent..")
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(Thread.class, java.time.Clock.class, java.util.Random.class)
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethod(java.time.Instant.class, "now")
                .orShould()
                .callMethod(System.class, "getenv", String.class)
                .check(classes);
    }

    @Test
    void onlyTheConfReadersTouchFiles() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.sluice.common.hostlist..",
                        "dev.sluice.common.time..",
                        "dev.sluice.common.units..",
                        "dev.sluice.common.gres..",
                        "dev.sluice.common.tres..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.nio.file..", "java.io..")
                .check(classes);
    }
}
