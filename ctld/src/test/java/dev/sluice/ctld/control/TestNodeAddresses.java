package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.NodeAddresses.Choice;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The controller records an address it can reach, whatever the node daemon claims. */
class TestNodeAddresses {
    /** Names this controller can resolve; IP literals always resolve. */
    private static final Predicate<String> DNS =
            a -> Set.of("node1.cluster", "d1.cluster").contains(a) || a.matches("[0-9.]+|[0-9a-f:]+");

    private static final Optional<String> PEER = Optional.of("10.0.0.7");

    private static Node created(String name, String addr) {
        return ClusterFixture.aNode(name).cpus(2).at(addr, 6818).future().build();
    }

    @Test
    void aClaimThatResolvesIsTaken() {
        assertThat(NodeAddresses.choose("node1", "node1.cluster", Optional.empty(), PEER, DNS))
                .isEqualTo(new Choice("node1.cluster", Optional.empty()));
        assertThat(NodeAddresses.choose("dyn1", "192.168.1.5", Optional.empty(), PEER, DNS))
                .isEqualTo(new Choice("192.168.1.5", Optional.empty()));
    }

    @Test
    void aDynamicNodeThatClaimsNothingIsRecordedWhereItRegisteredFrom() {
        assertThat(NodeAddresses.choose("pod-7f9c", "", Optional.empty(), PEER, DNS))
                .isEqualTo(new Choice("10.0.0.7", Optional.empty()));
    }

    @Test
    void aClaimThatDoesNotResolveIsPassedOverAndSaidSo() {
        assertThat(NodeAddresses.choose("dyn2", "dyn2", Optional.empty(), PEER, DNS))
                .isEqualTo(new Choice(
                        "10.0.0.7",
                        Optional.of("node dyn2: NodeAddr=dyn2 does not resolve here; using 10.0.0.7,"
                                + " the address it registered from")));
    }

    @Test
    void aCreatedNodesOwnNodeAddrHoldsUntilItRegisters() {
        Node withAddr = created("d1", "d1.cluster");
        assertThat(NodeAddresses.choose("d1", "", Optional.of(withAddr), PEER, DNS))
                .isEqualTo(new Choice("d1.cluster", Optional.empty()));
        // Without one of its own its address is its name: not a choice, and it may not resolve.
        assertThat(NodeAddresses.choose("d2", "", Optional.of(created("d2", "d2")), PEER, DNS))
                .isEqualTo(new Choice("10.0.0.7", Optional.empty()));
        // Once registered, a node that claims nothing is where it registers from now (a pod
        // that came back with another IP), not where it was.
        Node registered = withAddr.withRegistration(
                new NodeEndpoint("d1", "10.0.0.3", 6818),
                NodeHardware.ofCpus(2, 1000),
                true,
                new DaemonReport(1L, "0.1.0", NodeFacts.NONE));
        assertThat(NodeAddresses.choose("d1", "", Optional.of(registered), PEER, DNS))
                .isEqualTo(new Choice("10.0.0.7", Optional.empty()));
        Node unresolvable = created("d3", "d3.nowhere");
        assertThat(NodeAddresses.choose("d3", "", Optional.of(unresolvable), PEER, DNS)
                        .addr())
                .isEqualTo("10.0.0.7");
    }

    @Test
    void withoutAConnectionAddressTheClaimOrTheKnownAddressIsKept() {
        assertThat(NodeAddresses.choose("n1", "n1", Optional.empty(), Optional.empty(), DNS))
                .isEqualTo(new Choice("n1", Optional.empty()));
        assertThat(NodeAddresses.choose("d1", "", Optional.of(created("d1", "d1.cluster")), Optional.empty(), DNS))
                .isEqualTo(new Choice("d1.cluster", Optional.empty()));
        assertThat(NodeAddresses.choose("d9", "", Optional.empty(), Optional.empty(), DNS))
                .isEqualTo(new Choice("d9", Optional.empty()));
    }
}
