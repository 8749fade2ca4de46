package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.DbdResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * sacctmgr end to end against a fake sluice-dbd, under a slurm.conf of cluster anchor (node n1,
 * partition gpu) whose accounting is that fake.
 */
final class SacctmgrAgainstFakeDbd implements AutoCloseable {
    final FakeDbd dbd;
    private final Path dir;
    private final Map<String, String> env;

    private SacctmgrAgainstFakeDbd(Path dir, FakeDbd dbd, Map<String, String> env) {
        this.dir = dir;
        this.dbd = dbd;
        this.env = env;
    }

    /** A fake answering every request with {@code answer}; its slurm.conf written in {@code dir}. */
    static SacctmgrAgainstFakeDbd answering(Path dir, Consumer<DbdResponse.Builder> answer) throws Exception {
        FakeDbd dbd = FakeDbd.answering(answer);
        Map<String, String> env = TestingInvocations.accountingConf(
                dir,
                dbd.port(),
                "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN",
                "PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP");
        return new SacctmgrAgainstFakeDbd(dir, dbd, env);
    }

    Output run(String... args) {
        return typing("", args);
    }

    /** sacctmgr with {@code stdin} as what the user types (its confirmation). */
    Output typing(String stdin, String... args) {
        return TestingInvocations.run(new SacctmgrCommand(), TestingInvocations.invocation(dir, env, stdin, args));
    }

    @Override
    public void close() throws Exception {
        dbd.close();
    }
}
