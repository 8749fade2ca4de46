package dev.sluice.ctld.accounting;

import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Association;
import dev.sluice.ctld.limits.Limits;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.limits.TresLimits;
import dev.sluice.ctld.limits.UserWckeys;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.PolicySnapshot;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.UserEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** sluice-dbd's {@link PolicySnapshot} as the controller's {@link AccountingPolicy}. Pure. */
public final class PolicyMapper {
    private PolicyMapper() {}

    /** @throws IllegalArgumentException for a TRES limit that is not a number */
    public static AccountingPolicy fromSnapshot(PolicySnapshot s) {
        List<Association> assocs = new ArrayList<>();
        for (AssociationEntry a : s.getAssociationsList()) {
            AssociationLimits l = a.getLimits();
            assocs.add(new Association(
                    a.getAccount(),
                    a.getUser(),
                    a.getPartition(),
                    a.getParentAccount(),
                    new Limits(
                            l.hasMaxJobs() ? Integer.toUnsignedLong(l.getMaxJobs()) : Limits.NONE,
                            l.hasMaxSubmitJobs() ? Integer.toUnsignedLong(l.getMaxSubmitJobs()) : Limits.NONE,
                            l.hasMaxWallMinutes() ? Integer.toUnsignedLong(l.getMaxWallMinutes()) : Limits.NONE,
                            TresLimits.parse(l.getGrpTres()),
                            TresLimits.parse(l.getMaxTres()),
                            l.hasGrpJobs() ? Integer.toUnsignedLong(l.getGrpJobs()) : Limits.NONE,
                            l.hasGrpSubmitJobs() ? Integer.toUnsignedLong(l.getGrpSubmitJobs()) : Limits.NONE,
                            TresLimits.parse(l.getMaxTresPerNode())),
                    names(l.getQos()),
                    l.getDefaultQos().toLowerCase(Locale.ROOT),
                    l.hasShares() ? Integer.toUnsignedLong(l.getShares()) : 1,
                    a.getId()));
        }
        Map<String, String> defaults = new HashMap<>();
        for (UserEntry u : s.getUsersList()) {
            defaults.put(u.getName(), u.getDefaultAccount());
        }
        Map<String, Qos> qos = new HashMap<>();
        for (QosEntry q : s.getQosList()) {
            qos.put(
                    q.getName(),
                    Qos.builder(q.getName())
                            .priority(Integer.toUnsignedLong(q.getPriority()))
                            .limits(new Limits(
                                    q.hasMaxJobsPerUser() ? Integer.toUnsignedLong(q.getMaxJobsPerUser()) : Limits.NONE,
                                    q.hasMaxSubmitJobsPerUser()
                                            ? Integer.toUnsignedLong(q.getMaxSubmitJobsPerUser())
                                            : Limits.NONE,
                                    q.hasMaxWallMinutes() ? Integer.toUnsignedLong(q.getMaxWallMinutes()) : Limits.NONE,
                                    TresLimits.parse(q.getGrpTres()),
                                    TresLimits.parse(q.getMaxTresPerJob()),
                                    q.hasGrpJobs() ? Integer.toUnsignedLong(q.getGrpJobs()) : Limits.NONE,
                                    q.hasGrpSubmitJobs() ? Integer.toUnsignedLong(q.getGrpSubmitJobs()) : Limits.NONE,
                                    TresLimits.NONE))
                            .caps(new Qos.HolderCaps(
                                    TresLimits.parse(q.getMaxTresPerAccount()),
                                    TresLimits.parse(q.getMaxTresPerUser())))
                            .maxTresPerNode(TresLimits.parse(q.getMaxTresPerNode()))
                            .usageThreshold(enforcedThreshold(q))
                            .denyOnLimit(hasFlag(q, "DenyOnLimit"))
                            .preemption(new Qos.Preemption(
                                    q.getPreemptList().stream()
                                            .map(n -> n.toLowerCase(Locale.ROOT))
                                            .toList(),
                                    q.getPreemptMode(),
                                    Integer.toUnsignedLong(q.getGraceTimeSeconds()),
                                    q.hasPreemptExemptSeconds()
                                            ? Integer.toUnsignedLong(q.getPreemptExemptSeconds())
                                            : Qos.EXEMPT_UNSET))
                            .build());
        }
        List<UserWckeys.Held> wckeys = s.getWckeysList().stream()
                .map(w -> new UserWckeys.Held(w.getUser(), w.getName(), w.getIsDefault()))
                .toList();
        return new AccountingPolicy(s.getVersion(), assocs, defaults, qos, UserWckeys.of(wckeys));
    }

    /** Slurm applies a QOS's UsageThreshold only when the QOS has the flag EnforceUsageThreshold. */
    private static double enforcedThreshold(QosEntry q) {
        return hasFlag(q, "EnforceUsageThreshold") && q.hasUsageThreshold()
                ? q.getUsageThreshold()
                : Qos.THRESHOLD_UNSET;
    }

    private static boolean hasFlag(QosEntry q, String flag) {
        return q.getFlagsList().stream().anyMatch(f -> f.strip().equalsIgnoreCase(flag));
    }

    private static List<String> names(String list) {
        List<String> out = new ArrayList<>();
        for (String n : list.split(",")) {
            if (!n.isBlank()) {
                out.add(n.strip().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }
}
