package dev.sluice.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rules that let a command run inside a warm agent and start fast in a fresh JVM: only
 * {@link Main} touches the process; nothing on the command path loads gRPC or netty.
 */
class TestArchitecture {
    private static final JavaClasses CLI = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.sluice.cli");

    @Test
    void onlyMainTouchesTheProcess() {
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName(Main.class.getName())
                // the agent's entry point is a process of its own
                .and()
                .doNotHaveFullyQualifiedName(dev.sluice.cli.agent.AgentMain.class.getName())
                .should()
                .callMethod(System.class, "exit", int.class)
                .orShould()
                .callMethod(System.class, "getenv")
                .orShould()
                .callMethod(System.class, "getenv", String.class)
                .orShould()
                .accessField(System.class, "out")
                .orShould()
                .accessField(System.class, "err")
                .orShould()
                .accessField(System.class, "in")
                .check(CLI);
    }

    @Test
    void noGrpcOrNettyOnTheCommandPath() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.grpc..", "io.netty..", "picocli..")
                .check(CLI);
    }

    @Test
    void formattingAndParsingArePure() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.sluice.cli.getopt..", "dev.sluice.cli.format..", "dev.sluice.cli.view..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.net..", "java.nio.file..", "java.io..")
                .check(CLI);
    }
}
