package dev.sluice.noded;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchStepRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.List;
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
                .callMethod(Clock.class, "system", ZoneId.class)
                .orShould()
                .callMethod(LocalDate.class, "now")
                .orShould()
                .callMethod(LocalTime.class, "now")
                .orShould()
                .callMethod(OffsetDateTime.class, "now")
                .orShould()
                .callConstructor(Date.class)
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .check(classes);
    }

    /**
     * The launchers, what they are built with and the outbox between launcher and registrar are
     * wired once, at construction: no field is set afterwards (a setter would let a job launch
     * with half the wiring). What reconfigure changes is read through the setup's policy.
     */
    @Test
    void launchersAreWiredAtConstruction() {
        fields().that()
                .areDeclaredIn(dev.sluice.noded.launch.BatchLauncher.class)
                .or()
                .areDeclaredIn(dev.sluice.noded.launch.StepLauncher.class)
                .or()
                .areDeclaredIn(dev.sluice.noded.launch.LaunchSetup.class)
                .or()
                .areDeclaredIn(dev.sluice.noded.spool.Outbox.class)
                .and()
                .areNotStatic()
                // The outbox's one flag is its channel's state, guarded by its monitor.
                .and()
                .doNotHaveName("posted")
                .should()
                .beFinal()
                .check(classes);
    }

    /**
     * The controller's launches are parsed once, at the edge ({@code wire.BatchJobMapper} and
     * {@code wire.StepLaunchMapper}, called where a request arrives and where the spool reads a
     * batch launch back): the launchers, the cgroup code and the job model work on
     * {@code job.BatchJob} and {@code job.StepLaunch} and never read the requests' fields.
     */
    @Test
    void batchLaunchWorksOnTheTypedJob() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.sluice.noded.launch..", "dev.sluice.noded.confine..", "dev.sluice.noded.job..")
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(LaunchBatchJobRequest.class, JobSpec.class, GresGrant.class, LaunchStepRequest.class)
                .check(classes);
    }

    /**
     * The job model is plain values; in launch, protobuf is left only in the classes listed here:
     * the step launcher's frames on srun's I/O socket (hello, output, exit, signal, input, resize),
     * that socket's own wire format. The list only shrinks: a class converted comes off it.
     */
    @Test
    void protobufInLaunchIsConfinedToWhatIsNotConvertedYet() {
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.noded.job..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sluice.protocol..")
                .check(classes);
        String notYet = String.join("|", List.of("StepLauncher", "TaskInputs"));
        noClasses()
                .that()
                .resideInAPackage("dev.sluice.noded.launch..")
                .and()
                .haveNameNotMatching("dev\\.sluice\\.noded\\.launch\\.(" + notYet + ")(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sluice.protocol..")
                .check(classes);
    }
}
