package dev.sluice.ctld.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The submitting host a job is shown with (AllocNode). */
class TestAllocNodes {
    @Test
    void aSubmittingHostIsNamedAsItsAddressResolvesBack() {
        AllocNodes names = new AllocNodes(h -> h.equals("vm") ? "localhost" : h);
        assertThat(names.apply("vm")).isEqualTo("localhost");
        assertThat(names.apply("")).isEmpty();
    }
}
