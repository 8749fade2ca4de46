package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sluice up --conf Key=Value}: a line replaces the one setting its key, or is added. */
class TestLocalClusterOverrides {
    private static final String CONF = "ClusterName=sluice\nMinJobAge=300\nKillWait=10\n";

    @Test
    void replacesTheLineOfTheSameKeyIgnoringCase() {
        assertThat(LocalClusterFiles.overridden(CONF, List.of("minjobage=10")))
                .isEqualTo("ClusterName=sluice\nKillWait=10\nminjobage=10\n");
    }

    @Test
    void addsAKeyTheFileDoesNotSet() {
        assertThat(LocalClusterFiles.overridden(CONF, List.of("MaxArraySize=10001")))
                .isEqualTo(CONF + "MaxArraySize=10001\n");
    }

    @Test
    void aKeyThatIsAPrefixOfAnotherLeavesTheOtherAlone() {
        assertThat(LocalClusterFiles.overridden("MinJobAgeX=1\n", List.of("MinJobAge=10")))
                .isEqualTo("MinJobAgeX=1\nMinJobAge=10\n");
    }
}
