package dev.sluice.dbd;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The accounting daemon's layers: pure model, SQL in store only, transports in server only. */
class TestArchitecture {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice.dbd");
    }

    @Test
    void theModelIsPure() {
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.dbd.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.sql..",
                        "javax.sql..",
                        "io.grpc..",
                        "java.net..",
                        "java.io..",
                        "java.nio.file..",
                        "dev.sluice.dbd.store..",
                        "dev.sluice.dbd.server..")
                .check(classes);
    }

    @Test
    void onlyTheStoreSpeaksSql() {
        // The server may see a store method fail with SQLException; nothing else of JDBC.
        DescribedPredicate<JavaClass> jdbc = resideInAnyPackage("java.sql..", "com.zaxxer..", "org.flywaydb..")
                .and(DescribedPredicate.not(equivalentTo(SQLException.class)));
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.sluice.dbd.store..")
                .should()
                .dependOnClassesThat(jdbc)
                .check(classes);
    }

    @Test
    void theStoreKnowsNoTransport() {
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.dbd.store..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.grpc..", "java.net..", "dev.sluice.dbd.server..")
                .check(classes);
    }

    @Test
    void theAccountingWritePathBindsNoWireTypes() {
        // The controller's records are read at the edge (server.AccountingWire); the store
        // writes rows from the model's entries, so a wire change cannot reach the SQL.
        noClasses()
                .that()
                .haveSimpleName("AccountingStore")
                .or()
                .haveSimpleName("ClusterTres")
                .or()
                .resideInAPackage("dev.sluice.dbd.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.sluice.protocol..", "com.google.protobuf..")
                .check(classes);
    }
}
