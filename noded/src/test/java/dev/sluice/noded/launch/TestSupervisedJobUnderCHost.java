package dev.sluice.noded.launch;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link TestSupervisedJob}'s tests with the job started by the C supervisor host, as a node
 * daemon starts it: its identity, environment, directory, umask and files, set in the forked
 * process before its exec, must be what sluice-supervise.pl gives it.
 */
class TestSupervisedJobUnderCHost extends TestSupervisedJob {
    @Override
    Supervisor supervisor() throws Exception {
        assumeTrue(Supervisor.perlRuns(), "needs /usr/bin/perl");
        Supervisor supervisor = Supervisor.install(spool, true, Supervisor.HostProgram.C);
        assumeTrue(supervisor.hostInC(), "sluice-noded was built without a C compiler");
        return supervisor;
    }

    @Override
    void supervise(Supervisor supervisor, Path dir, List<String> options, List<String> command) throws Exception {
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            host.start(supervisor.arguments(dir, options, command)).ended().get(30, TimeUnit.SECONDS);
        }
    }
}
