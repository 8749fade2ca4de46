package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** AdminLevel read as Slurm writes it, and who may change accounting. */
class TestAdminLevel {
    @Test
    void onlySlurmsSpellingIsALevelAndOnlyNoneIsNoOperator() {
        assertThat(AdminLevel.of("Operator")).contains(AdminLevel.OPERATOR);
        assertThat(AdminLevel.of("Administrator")).contains(AdminLevel.ADMINISTRATOR);
        assertThat(AdminLevel.of("None")).contains(AdminLevel.NONE);
        assertThat(AdminLevel.of("operator")).isEmpty();
        assertThat(AdminLevel.of("Boss")).isEmpty();
        assertThat(AdminLevel.of("")).isEmpty();
        assertThat(AdminLevel.NONE.atLeastOperator()).isFalse();
        assertThat(AdminLevel.OPERATOR.atLeastOperator()).isTrue();
        assertThat(AdminLevel.ADMINISTRATOR.atLeastOperator()).isTrue();
        assertThat(AdminLevel.ADMINISTRATOR.text()).isEqualTo("Administrator");
    }
}
