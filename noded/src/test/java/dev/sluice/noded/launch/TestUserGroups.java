package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user's groups from the name service: what {@code id -G USER} (getgrouplist too) prints. */
class TestUserGroups {
    private static List<Integer> idG(String user) throws Exception {
        Process p =
                new ProcessBuilder("id", "-G", user).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isZero();
        return Arrays.stream(out.split("\\s+")).map(Integer::valueOf).toList();
    }

    @Test
    void rootsGroupsAreThoseIdPrints() throws Exception {
        assertThat(UserGroups.of("root", 0)).isEqualTo(idG("root"));
    }

    @Test
    void theGidComesFirstAndOnceEvenForAUserOfNoOtherGroup() throws Exception {
        assumeTrue(
                Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(l -> l.startsWith("sluiceuser1:")),
                "needs sluiceuser1 (.ci/run makes it)");
        List<Integer> groups = UserGroups.of("sluiceuser1", 1001);
        assertThat(groups).isEqualTo(idG("sluiceuser1"));
        assertThat(groups.get(0)).isEqualTo(1001);
        assertThat(groups).doesNotHaveDuplicates();
    }

    @Test
    void anUnknownUserHasItsGidAlone() throws Exception {
        assertThat(UserGroups.of("no-such-user-here", 4321)).containsExactly(4321);
    }
}
