package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetLicensesResponse;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.LicenseInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code scontrol show licenses}, a job's {@code Licenses=}, squeue's {@code %W}. */
class TestLicenseViews {
    private volatile GetLicensesResponse licenses = GetLicensesResponse.getDefaultInstance();

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_LICENSES ->
            ClientResponse.newBuilder().setGetLicenses(licenses).build();
        case GET_JOBS ->
            ClientResponse.newBuilder()
                    .setGetJobs(GetJobsResponse.newBuilder()
                            .addJobs(Fixtures.job(7, Fixtures.wrapSpec().setLicenses("foo:2,bar:1"), JobState.PENDING)
                                    .setReason("Licenses"))
                            .addJobs(Fixtures.job(8, Fixtures.wrapSpec(), JobState.PENDING)))
                    .build();
        default -> throw new AssertionError(req.getBodyCase());
    });

    private static LicenseInfo license(String name, long total, long used) {
        return LicenseInfo.newBuilder()
                .setName(name)
                .setTotal(total)
                .setUsed(used)
                .build();
    }

    @Test
    void withoutLicensesConfiguredScontrolSaysSo() {
        assertThat(cli.run(new ScontrolCommand(), "show", "licenses"))
                .isEqualTo(new Output(0, "No licenses configured in Slurm.\n", ""));
        assertThat(cli.run(new ScontrolCommand(), "show", "li"))
                .isEqualTo(cli.run(new ScontrolCommand(), "show", "lic"));
    }

    @Test
    void eachLicenseShowsItsTotalUseAndWhatIsFree() {
        licenses = GetLicensesResponse.newBuilder()
                .addLicenses(license("bar", 1, 0))
                .addLicenses(license("foo", 4, 2))
                .build();
        assertThat(cli.run(new ScontrolCommand(), "show", "licenses").out()).isEqualTo("""
                        LicenseName=bar
                            Total=1 Used=0 Free=1 Reserved=0 Remote=no
                        LicenseName=foo
                            Total=4 Used=2 Free=2 Reserved=0 Remote=no
                        """);
        assertThat(cli.run(new ScontrolCommand(), "-o", "show", "lic", "foo").out())
                .isEqualTo("LicenseName=foo Total=4 Used=2 Free=2 Reserved=0 Remote=no\n");
        assertThat(cli.run(new ScontrolCommand(), "show", "lic", "nosuch")).isEqualTo(new Output(0, "", ""));
    }

    @Test
    void reservedLicensesAreShownButNotTakenFromFree() {
        // Slurm 22.05 (compat 284): Free is what running jobs leave; Reserved may exceed it.
        licenses = GetLicensesResponse.newBuilder()
                .addLicenses(license("foo", 4, 3).toBuilder().setReserved(2))
                .build();
        assertThat(cli.run(new ScontrolCommand(), "-o", "show", "lic").out())
                .isEqualTo("LicenseName=foo Total=4 Used=3 Free=1 Reserved=2 Remote=no\n");
    }

    @Test
    void aJobShowsItsLicensesInScontrolAndSqueue() {
        assertThat(cli.run(new ScontrolCommand(), "show", "job", "7").out()).contains(" Licenses=foo:2,bar:1 ");
        assertThat(cli.run(new ScontrolCommand(), "show", "job", "8").out()).contains(" Licenses=(null) ");
        assertThat(cli.run(new SqueueCommand(), "-h", "-S", "i", "-o", "%i %W %r")
                        .out())
                .isEqualTo("7 foo:2,bar:1 Licenses\n8 (null) None\n");
        assertThat(cli.run(new SqueueCommand(), "-h", "-S", "i", "-O", "jobid:4,licenses")
                        .out())
                .isEqualTo("7   foo:2,bar:1         \n8   (null)              \n");
    }
}
