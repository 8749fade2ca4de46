package dev.sluice.ctld;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller's package boundaries (see each package-info). */
class TestArchitecture {
    private static final String[] DOMAIN = {
        "dev.sluice.ctld.state..", "dev.sluice.ctld.select..", "dev.sluice.ctld.sched..", "dev.sluice.ctld.control.."
    };
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice.ctld");
    }

    @Test
    void domainIgnoresTheWire() {
        ArchRule rule = noClasses()
                .that()
                .resideInAnyPackage(DOMAIN)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.sluice.protocol..", "io.grpc..", "io.netty..", "com.google.protobuf..");
        rule.check(classes);
    }

    @Test
    void domainDoesNoIoAndHasNoThreads() {
        noClasses()
                .that()
                .resideInAnyPackage(DOMAIN)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.net..", "java.nio.file..", "java.io..", "java.util.concurrent..")
                .check(classes);
    }

    /** What happened is logged at the edge, from the journaled records (loop.JobLog). */
    @Test
    void domainDoesNotLog() {
        noClasses()
                .that()
                .resideInAnyPackage(DOMAIN)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.slf4j..", "java.util.logging..")
                .check(classes);
    }

    @Test
    void domainReadsNoWallClock() {
        noClasses()
                .that()
                .resideInAnyPackage(DOMAIN)
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.Clock")
                .orShould()
                .callMethod(java.time.Instant.class, "now")
                .check(classes);
    }

    /**
     * Decisions read the state through {@code ClusterView}, which has no mutators: only the loop
     * (replay and soft changes), recovery and the server that builds it hold the state itself.
     */
    @Test
    void onlyTheLoopHoldsTheMutableState() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "dev.sluice.ctld.state..",
                        "dev.sluice.ctld.loop..",
                        "dev.sluice.ctld.persistence..",
                        "dev.sluice.ctld.server..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.sluice.ctld.state.ClusterState")
                .check(classes);
    }

    @Test
    void onlyTheEdgeSpeaksProtobuf() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.sluice.ctld.loop..", "dev.sluice.ctld.config..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.grpc..", "io.netty..")
                .check(classes);
    }
}
