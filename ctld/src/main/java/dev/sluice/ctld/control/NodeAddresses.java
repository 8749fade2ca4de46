package dev.sluice.ctld.control;

import dev.sluice.ctld.state.Node;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The address the controller records for a registering node daemon, which must be one it can
 * reach: an address that does not resolve here leaves every job for the node retrying "Unable
 * to resolve host" forever. In order:
 *
 * <ol>
 *   <li>what the daemon claims ({@code --addr}, its slurm.conf {@code NodeAddr}, or
 *       {@code NodeAddr=} in {@code -Z --conf}), when it resolves here;
 *   <li>for a node {@code scontrol create} made with its own {@code NodeAddr} and that has not
 *       registered yet, that address, when it resolves here (the administrator chose it);
 *   <li>the address the registration came from, as the controller sees the connection.
 * </ol>
 *
 * Without a connection address (an in-process transport) the first of claimed, known and the
 * node's name is kept, as before. Resolving is the caller's: it is I/O.
 */
public final class NodeAddresses {
    private NodeAddresses() {}

    /** The address to record, and why a claimed or configured one was not taken (for the log). */
    public record Choice(String addr, Optional<String> passedOver) {}

    public static Choice choose(
            String name, String claimed, Optional<Node> known, Optional<String> peer, Predicate<String> resolves) {
        if (peer.isEmpty()) {
            String kept = !claimed.isEmpty()
                    ? claimed
                    : known.map(n -> n.endpoint().addr()).orElse(name);
            return new Choice(kept, Optional.empty());
        }
        if (!claimed.isEmpty()) {
            if (resolves.test(claimed)) {
                return new Choice(claimed, Optional.empty());
            }
            return new Choice(peer.get(), Optional.of(passedOver(name, claimed, peer.get())));
        }
        Optional<String> chosen = known.filter(
                        n -> !n.registered() && !n.endpoint().addr().equals(n.name()))
                .map(n -> n.endpoint().addr());
        if (chosen.isPresent()) {
            if (resolves.test(chosen.get())) {
                return new Choice(chosen.get(), Optional.empty());
            }
            return new Choice(peer.get(), Optional.of(passedOver(name, chosen.get(), peer.get())));
        }
        return new Choice(peer.get(), Optional.empty());
    }

    private static String passedOver(String name, String addr, String peer) {
        return "node " + name + ": NodeAddr=" + addr + " does not resolve here; using " + peer
                + ", the address it registered from";
    }
}
