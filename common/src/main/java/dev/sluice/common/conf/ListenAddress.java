package dev.sluice.common.conf;

import java.util.Arrays;
import java.util.List;

/**
 * Which address a daemon binds, from {@code CommunicationParameters} (slurm.conf(5),
 * slurmdbd.conf(5)). As in Slurm, every address by default; {@code NoCtldInAddrAny} binds the
 * controller, and {@code NoInAddrAny} every other daemon, to one address only. Slurm takes that
 * address from what the host's own name resolves to; Sluice takes the one the configuration
 * names for the daemon — the controller's {@code SlurmctldHost=name(addr)}, the node's
 * {@code NodeAddr}, sluice-dbd's {@code DbdAddr} — which is the same on a cluster whose names
 * resolve as Slurm expects, and lets a one-machine cluster listen on loopback only. The daemon's
 * metrics endpoint binds the same address.
 */
public final class ListenAddress {
    /** Every IPv4 and IPv6 address of the host (Java binds a dual-stack socket for it). */
    public static final String ANY = "0.0.0.0";

    /** slurmctld binds its own address only. */
    public static final String NO_CTLD_IN_ADDR_ANY = "NoCtldInAddrAny";

    /** Every daemon but slurmctld binds its own address only. */
    public static final String NO_IN_ADDR_ANY = "NoInAddrAny";

    private ListenAddress() {}

    /** Whether a {@code CommunicationParameters} value holds {@code flag} (case-insensitive). */
    public static boolean has(String communicationParameters, String flag) {
        return communicationParameters != null
                && Arrays.stream(communicationParameters.split(","))
                        .anyMatch(p -> p.strip().equalsIgnoreCase(flag));
    }

    /**
     * The controller's address: with {@code NoCtldInAddrAny}, the address of the
     * {@code SlurmctldHost} entry named {@code thisHost} (a backup controller binds its own), else
     * of the first entry; {@link #ANY} otherwise.
     */
    public static String controller(SlurmConf conf, String thisHost) {
        if (!has(conf.value("CommunicationParameters").orElse(null), NO_CTLD_IN_ADDR_ANY)) {
            return ANY;
        }
        List<ControlHost> hosts = conf.controlHostEntries();
        if (hosts.isEmpty()) {
            return "localhost";
        }
        return hosts.stream()
                .filter(h -> h.name().equals(thisHost))
                .findFirst()
                .orElse(hosts.get(0))
                .addr();
    }

    /** A node daemon's address: its {@code nodeAddr} with {@code NoInAddrAny}, {@link #ANY} otherwise. */
    public static String node(SlurmConf conf, String nodeAddr) {
        return has(conf.value("CommunicationParameters").orElse(null), NO_IN_ADDR_ANY) ? nodeAddr : ANY;
    }
}
