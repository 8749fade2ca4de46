package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** slurm.conf(5) Licenses and sbatch(1) --licenses: {@code foo:4,bar}, bar meaning one. */
class TestLicenses {

    @Test
    void aNameWithoutACountIsOne() {
        Licenses l = Licenses.parse("foo:4,bar");
        assertThat(l.counts()).containsExactly(Map.entry("foo", 4L), Map.entry("bar", 1L));
        assertThat(l.toString()).isEqualTo("foo:4,bar");
        assertThat(l.count("baz")).isZero();
    }

    @Test
    void theConfiguredListIsInNameOrderAndARequestAsTyped() {
        assertThat(List.copyOf(
                        Licenses.configured("fluent:30,ansys:100").counts().keySet()))
                .containsExactly("ansys", "fluent");
        assertThat(List.copyOf(Licenses.parse("fluent:30,ansys:100").counts().keySet()))
                .containsExactly("fluent", "ansys");
    }

    @Test
    void aNameGivenTwiceCountsTwice() {
        assertThat(Licenses.parse("foo:1,foo:2").count("foo")).isEqualTo(3);
    }

    @Test
    void blankIsNone() {
        assertThat(Licenses.parse("")).isEqualTo(Licenses.NONE);
        assertThat(Licenses.parse(null).isEmpty()).isTrue();
    }

    @Test
    void malformedListsAreRefused() {
        for (String bad : List.of("foo:", "foo:x", ":2", "foo:-1")) {
            assertThatThrownBy(() -> Licenses.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aRequestIsAdmittedOnlyForConfiguredLicensesWithinTheirTotals() {
        Licenses configured = Licenses.configured("foo:4,bar");
        assertThat(configured.admits(Licenses.parse("foo:4,bar"))).isTrue();
        assertThat(configured.admits(Licenses.NONE)).isTrue();
        assertThat(configured.admits(Licenses.parse("foo:5"))).isFalse();
        assertThat(configured.admits(Licenses.parse("bar:2"))).isFalse();
        assertThat(configured.admits(Licenses.parse("baz"))).isFalse();
        assertThat(Licenses.NONE.admits(Licenses.parse("foo"))).isFalse();
    }
}
