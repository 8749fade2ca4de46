package dev.sluice.ctld;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.sluice.protocol.v1.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller's package boundaries (see each package-info). */
class TestArchitecture {
    /** Pure: decisions, the state they read and the values they make. */
    private static final String[] DOMAIN = {
        "dev.sluice.ctld.state..",
        "dev.sluice.ctld.select..",
        "dev.sluice.ctld.sched..",
        "dev.sluice.ctld.control..",
        "dev.sluice.ctld.gres..",
        "dev.sluice.ctld.queue..",
        "dev.sluice.ctld.limits.."
    };

    /**
     * Where the wire meets the domain: the client and node-daemon APIs (rpc, step), the mapper
     * (wire), the journal's format (persistence), calls to node daemons (dispatch), shipping to
     * sluice-dbd (accounting) and the server that wires them up.
     */
    private static final String[] EDGE = {
        "dev.sluice.ctld.rpc..",
        "dev.sluice.ctld.step..",
        "dev.sluice.ctld.wire..",
        "dev.sluice.ctld.persistence..",
        "dev.sluice.ctld.dispatch..",
        "dev.sluice.ctld.accounting..",
        "dev.sluice.ctld.server.."
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

    /** Generated protocol classes (and protobuf itself) stay at the edge; the loop and the domain never see them. */
    @Test
    void onlyTheEdgeSpeaksProtobuf() {
        noClasses()
                .that()
                .resideOutsideOfPackages(EDGE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.sluice.protocol..", "com.google.protobuf..")
                .check(classes);
    }

    /** gRPC and netty: the edge alone (the interceptor that times gRPC calls is the RPC edge's). */
    @Test
    void onlyTheEdgeSpeaksGrpc() {
        noClasses()
                .that()
                .resideOutsideOfPackages(EDGE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.grpc..", "io.netty..")
                .check(classes);
    }

    /**
     * The RPC edge is a leaf: only the server, the composition root, builds and wires it. What
     * the handlers and the step service share with it lives below it (waiting for the loop:
     * {@code loop.LoopAnswers}); metrics are told of requests through a hook the server wires.
     */
    @Test
    void onlyTheCompositionRootImportsRpc() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.sluice.ctld.rpc..", "dev.sluice.ctld.server..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sluice.ctld.rpc..")
                .check(classes);
    }

    /**
     * The wire mapper turns messages into domain values and back; it decides nothing, so it
     * needs none of the handlers (the text check it shares with them lives in common.text).
     */
    @Test
    void theWireMapperNeedsNoHandler() {
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.ctld.wire..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.sluice.ctld.control..", "dev.sluice.ctld.loop..")
                .check(classes);
    }

    /**
     * The journal's format is its own (journal.proto's messages): its code handles none of the
     * commands' protocol types, not even through the wire mapper, so that changing those cannot
     * change what is on disk. The one exception is JobSpec, which JobSubmittedRecords written
     * before the journal's JobRequestRecord hold (only read).
     */
    @Test
    void theJournalHandlesNoneOfTheCommandsTypes() {
        classes()
                .that()
                .resideInAPackage("dev.sluice.ctld.persistence..")
                .should(handleNoCommandsType())
                .check(classes);
    }

    private static ArchCondition<JavaClass> handleNoCommandsType() {
        return new ArchCondition<>("handle none of the commands' protocol types (but the legacy JobSpec)") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                Set<String> found = new TreeSet<>();
                c.getDirectDependenciesFromSelf().forEach(d -> commands(d.getTargetClass(), d.getDescription(), found));
                for (JavaAccess<?> a : c.getAccessesFromSelf()) {
                    List<JavaClass> handled = new ArrayList<>();
                    if (a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget t) {
                        handled.addAll(t.getRawParameterTypes());
                        handled.add(t.getRawReturnType());
                    } else if (a.getTarget() instanceof AccessTarget.FieldAccessTarget t) {
                        handled.add(t.getRawType());
                    }
                    handled.forEach(h -> commands(h, a.getDescription(), found));
                }
                found.forEach(f -> events.add(SimpleConditionEvent.violated(c, f)));
            }
        };
    }

    private static void commands(JavaClass type, String where, Set<String> found) {
        JavaClass base = type.getBaseComponentType();
        String pkg = base.getPackageName();
        boolean commands = pkg.startsWith("dev.sluice.protocol") && !pkg.equals("dev.sluice.protocol.v1.journal");
        if (commands && !base.isEquivalentTo(JobSpec.class)) {
            found.add(base.getName() + ": " + where);
        }
    }
}
