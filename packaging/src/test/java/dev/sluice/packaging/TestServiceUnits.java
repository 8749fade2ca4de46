package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.agent.AgentMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the shipped systemd units promise and the daemons must keep: every unit waits for
 * READY=1 from its main process, and the socket directory the docs recommend is one the
 * sandboxed controller may write and a stopped controller leaves in place. (systemd-analyze
 * verify, in packaging/scripts/check-install.sh, checks the syntax; the daemons' READY=1 is
 * checked by TestSdNotify, TestAgentMain and check-deb-job.sh.)
 */
class TestServiceUnits {
    private static final Path DIST = Path.of("dist");
    private static final List<String> UNITS =
            List.of("sluice-ctld", "sluice-noded", "sluice-dbd", "sluice-agent", "sluice-restd");

    /** The [Service] section's values of {@code key}, in order (systemd: the last one wins). */
    private static List<String> values(String unit, String key) throws IOException {
        List<String> out = new ArrayList<>();
        boolean service = false;
        for (String line : Files.readAllLines(DIST.resolve("systemd").resolve(unit + ".service"))) {
            if (line.startsWith("[")) {
                service = line.equals("[Service]");
            } else if (service && line.startsWith(key + "=")) {
                out.add(line.substring(key.length() + 1));
            }
        }
        return out;
    }

    private static String value(String unit, String key) throws IOException {
        List<String> all = values(unit, key);
        return all.isEmpty() ? "" : all.get(all.size() - 1);
    }

    @Test
    void everyUnitWaitsForReadyFromItsMainProcess() throws IOException {
        try (var files = Files.list(DIST.resolve("systemd"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(
                            UNITS.stream().map(u -> u + ".service").toList());
        }
        for (String unit : UNITS) {
            assertThat(value(unit, "Type")).as(unit).isEqualTo("notify");
            assertThat(value(unit, "NotifyAccess")).as(unit).isEqualTo("main");
        }
    }

    @Test
    void theSandboxedControllerMayMakeItsCommandSocketInRunSluice() throws IOException {
        assertThat(value("sluice-ctld", "ProtectSystem")).isEqualTo("strict");
        // RuntimeDirectory= is writable under ProtectSystem=strict; ReadWritePaths= need not name it.
        assertThat(value("sluice-ctld", "RuntimeDirectory")).isEqualTo("sluice");
        assertThat(value("sluice-ctld", "RuntimeDirectoryMode")).isEqualTo("0755");
        // The agent's socket shares the directory: a stopped controller must not remove it.
        assertThat(value("sluice-ctld", "RuntimeDirectoryPreserve")).isEqualTo("yes");
        assertThat(Path.of(AgentMain.DEFAULT_SOCKET).getParent()).isEqualTo(Path.of("/run/sluice"));
    }

    @Test
    void runSluiceHasOneOwnerWhoeverStartsFirst() throws IOException {
        // Owned by slurm from boot (tmpfiles.d), as the controller's RuntimeDirectory= has it;
        // the root-run agent declares none, or each of its starts would chown it to root.
        assertThat(Files.readAllLines(DIST.resolve("tmpfiles.d/sluice.conf")))
                .anySatisfy(l -> assertThat(l.split("\\s+")).startsWith("d", "/run/sluice", "0755", "slurm", "slurm"));
        assertThat(value("sluice-ctld", "User")).isEqualTo("slurm");
        assertThat(values("sluice-agent", "RuntimeDirectory")).isEmpty();
        assertThat(value("sluice-agent", "ProtectSystem")).isEmpty();
    }
}
