package dev.sluice.ctld.rpc;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A job's AllocNode: the host it was submitted from as the controller names it. slurmctld
 * names the host in a request's credential by its address (the submitting host's own name,
 * resolved there), looked up back to a name; so a host called {@code vm} whose name resolves
 * to 127.0.0.1 is {@code localhost} in {@code scontrol show job}, while the job's environment
 * keeps the name the submitting command gave ({@code SLURM_SUBMIT_HOST=vm}). Sluice does the
 * same two lookups with the host name the command sent, once per name (the answers are cached
 * for the controller's life, as name service answers rarely change and queries must not wait
 * on DNS each time). A name that does not resolve is shown as sent.
 */
final class AllocNodes implements UnaryOperator<String> {
    private final UnaryOperator<String> lookup;
    private final Map<String, String> known = new ConcurrentHashMap<>();

    /** @param lookup host name to the name its address resolves back to (tests give their own) */
    AllocNodes(UnaryOperator<String> lookup) {
        this.lookup = lookup;
    }

    @Override
    public String apply(String submitHost) {
        if (submitHost.isEmpty()) {
            return "";
        }
        return known.computeIfAbsent(submitHost, lookup);
    }

    static String resolve(String host) {
        try {
            InetAddress forward = InetAddress.getByName(host);
            // A fresh address object without the name: getHostName() then asks the resolver.
            return InetAddress.getByAddress(forward.getAddress()).getHostName();
        } catch (UnknownHostException e) {
            return host;
        }
    }
}
