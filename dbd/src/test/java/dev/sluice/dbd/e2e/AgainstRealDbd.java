package dev.sluice.dbd.e2e;

import dev.sluice.dbd.server.DbdServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of the accounting commands against a real dbd alone, no controller: each test gets a
 * fresh dbd for cluster {@code anchor} and commands whose slurm.conf points at it.
 */
abstract class AgainstRealDbd {
    @TempDir
    Path dir;

    DbdServer dbd;
    UserCommands commands;

    @BeforeEach
    void startDbd() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "anchor");
        dbd = f.startDbd();
        commands = UserCommands.reading(f.clientConf(dbd));
    }

    @AfterEach
    void stopDbd() {
        dbd.close();
    }

    /** sacctmgr as root, {@code stdin} answering its questions. */
    UserCommands.Run sacctmgr(String stdin, String... args) {
        return commands.runWithInput(UserCommands.ROOT, stdin, "sacctmgr", args);
    }
}
