package dev.sluice.noded.launch;

/** {@link TestSupervisorHost}'s tests on the Perl host (sluice-supervise.pl --serve). */
class TestSupervisorHostInPerl extends TestSupervisorHost {
    @Override
    Supervisor.HostProgram program() {
        return Supervisor.HostProgram.PERL;
    }
}
