package dev.sluice.cli.command.salloc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** salloc without a command: the user's shell here, or the interactive step on a node. */
class TestDefaultCommand {
    private static SlurmConf conf(String lines) throws Exception {
        return SlurmConfReader.parse(
                "ClusterName=c\nSlurmctldHost=h\nNodeName=n1 CPUs=1\nPartitionName=p Nodes=n1\n" + lines,
                "slurm.conf",
                IncludeResolver.none());
    }

    @Test
    void withoutTheInteractiveStepItIsTheUsersShellOnThisHost() throws Exception {
        assertThat(DefaultCommand.of(conf(""), Map.of("SHELL", "/bin/bash"))).containsExactly("/bin/bash");
        assertThat(DefaultCommand.of(conf("LaunchParameters=test_exec\n"), Map.of()))
                .containsExactly("/bin/sh");
    }

    @Test
    void useInteractiveStepRunsSrunWithSlurmsDefaultOptionsThroughAShell() throws Exception {
        assertThat(DefaultCommand.of(conf("LaunchParameters=enable_nss_slurm,Use_Interactive_Step\n"), Map.of()))
                .containsExactly("/bin/sh", "-c", "srun --interactive --preserve-env --pty $SHELL");
    }

    @Test
    void theSitesInteractiveStepOptionsAreTakenAsWritten() throws Exception {
        assertThat(DefaultCommand.of(
                        conf("LaunchParameters=use_interactive_step\n"
                                + "InteractiveStepOptions=\"-n1 -N1 --mem-per-cpu=0 --interactive --pty --preserve-env"
                                + " --mpi=none $SHELL\"\n"),
                        Map.of()))
                .containsExactly(
                        "/bin/sh",
                        "-c",
                        "srun -n1 -N1 --mem-per-cpu=0 --interactive --pty --preserve-env --mpi=none $SHELL");
    }
}
