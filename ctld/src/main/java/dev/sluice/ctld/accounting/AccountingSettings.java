package dev.sluice.ctld.accounting;

import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.limits.Enforcement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The slurm.conf keys that turn shipping on: {@code AccountingStorageType=accounting_storage/slurmdbd}
 * with {@code AccountingStorageHost} (and {@code AccountingStoragePort}, default 6819). The
 * controller ships over gRPC to the daemons' port of sluice-dbd, {@code AccountingStoragePort}
 * + {@value #GRPC_PORT_OFFSET}, the way node daemons reach the controller; the user commands use
 * AccountingStoragePort itself. {@code AccountingStorageTRES} tells which licenses jobs' TRES
 * count ({@code license/foo}).
 */
public record AccountingSettings(String cluster, String host, int grpcPort, Set<String> trackedLicenses) {
    public AccountingSettings {
        trackedLicenses = Set.copyOf(trackedLicenses);
    }

    public static final String SLURMDBD = "accounting_storage/slurmdbd";
    public static final int DEFAULT_PORT = 6819;
    public static final int GRPC_PORT_OFFSET = 100;

    /** Empty when the configuration does not ask for accounting through a dbd. */
    public static Optional<AccountingSettings> from(CtldConfig config) {
        return from(config.clusterName(), config.files().settings());
    }

    /** {@code AccountingStorageEnforce}; nothing is enforced without a dbd to enforce from. */
    public static Enforcement enforcement(CtldConfig config) {
        if (from(config).isEmpty()) {
            return Enforcement.NONE;
        }
        return Optional.ofNullable(config.files().settings().get("AccountingStorageEnforce"))
                .map(v -> Enforcement.parse(List.of(v.split(","))))
                .orElse(Enforcement.NONE);
    }

    /** slurm.conf's {@code TrackWCKey} (jobs carry wckeys to accounting). */
    public static boolean tracksWckeys(CtldConfig config) {
        String value =
                config.files().settings().getOrDefault("TrackWCKey", "no").toLowerCase(Locale.ROOT);
        return from(config).isPresent() && Set.of("yes", "true", "1").contains(value);
    }

    static Optional<AccountingSettings> from(String cluster, Map<String, String> slurmConf) {
        String type = slurmConf.getOrDefault("AccountingStorageType", "accounting_storage/none");
        if (!type.toLowerCase(Locale.ROOT).equals(SLURMDBD)) {
            return Optional.empty();
        }
        String host = slurmConf.get("AccountingStorageHost");
        if (host == null || host.isBlank()) {
            // slurmctld refuses this combination too.
            throw new IllegalArgumentException(
                    "AccountingStorageType=" + SLURMDBD + " needs AccountingStorageHost in slurm.conf");
        }
        int port = Integer.parseInt(slurmConf.getOrDefault("AccountingStoragePort", Integer.toString(DEFAULT_PORT)));
        return Optional.of(new AccountingSettings(
                cluster, host, port + GRPC_PORT_OFFSET, Tres.trackedLicenses(slurmConf.get("AccountingStorageTRES"))));
    }
}
