package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TestCgroups {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    @Test
    void saysWhyJobsAreNotConfined() {
        assertThat(Cgroups.describe("tmpfs /sys/fs/cgroup tmpfs rw 0 0\n", ROOT, true))
                .startsWith("cgroup v2 is not mounted at /sys/fs/cgroup");
        String mounted = "proc /proc proc rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n";
        assertThat(Cgroups.describe(mounted, ROOT, false)).contains("is not writable");
        assertThat(Cgroups.describe(mounted, ROOT, true)).contains("offers no memory controller");
    }
}
