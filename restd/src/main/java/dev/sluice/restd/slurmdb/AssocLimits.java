package dev.sluice.restd.slurmdb;

import static java.util.Map.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.TresEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An association's limits as the newer data parsers write them, read into what sluice-dbd keeps,
 * by the sacctmgr key each sets ({@code fairshare}, {@code maxjobs}, ...): an association's
 * ({@code max/jobs/active}, {@code max/tres/per/job}: the inverse of {@link AssocJson}) or an
 * {@code add_assoc} condition's ({@code maxjobs}, {@code maxtresperjob}). A count may be
 * {@code infinite}, which clears the limit; a TRES one the database knows; a limit sluice-dbd does not keep, holding a value,
 * is refused by name.
 */
final class AssocLimits {
    /** Where each limit sits in an {@code assoc}. */
    static final Map<String, String> ASSOCIATION = Map.ofEntries(
            entry("shares_raw", "fairshare"),
            entry("max/jobs/active", "maxjobs"),
            entry("max/jobs/total", "maxsubmitjobs"),
            entry("max/jobs/per/count", "grpjobs"),
            entry("max/jobs/per/submitted", "grpsubmitjobs"),
            entry("max/jobs/per/wall_clock", "maxwall"),
            entry("max/tres/total", "grptres"),
            entry("max/tres/per/job", "maxtres"),
            entry("max/tres/per/node", "maxtrespernode"),
            entry("qos", "qos"),
            entry("default/qos", "defaultqos"));

    /** Where each limit sits in an {@code add_assoc} condition's {@code association}. */
    static final Map<String, String> ADD_COND = Map.ofEntries(
            entry("fairshare", "fairshare"),
            entry("maxjobs", "maxjobs"),
            entry("maxsubmitjobs", "maxsubmitjobs"),
            entry("grpjobs", "grpjobs"),
            entry("grpsubmitjobs", "grpsubmitjobs"),
            entry("maxwalldurationperjob", "maxwall"),
            entry("grptres", "grptres"),
            entry("maxtresperjob", "maxtres"),
            entry("maxtrespernode", "maxtrespernode"),
            entry("qoslevel", "qos"),
            entry("defaultqos", "defaultqos"));

    /** The limits given, and the sacctmgr keys of those set to no limit. */
    record Read(AssociationLimits limits, List<String> cleared) {
        boolean isEmpty() {
            return cleared.isEmpty() && limits.equals(AssociationLimits.getDefaultInstance());
        }
    }

    private AssocLimits() {}

    /**
     * The limits of {@code o} at the paths of {@code at}; any other field holding a value, not in
     * {@code others} (the fields its caller reads or the daemon keeps), is refused by name.
     */
    static Read read(JsonNode o, Map<String, String> at, Set<String> others, String where, List<TresEntry> known)
            throws DbWrites.BadBody {
        DbWrites.refuseUnapplied(o, "", at.keySet(), others, where);
        AssociationLimits.Builder limits = AssociationLimits.newBuilder();
        List<String> cleared = new ArrayList<>();
        for (Map.Entry<String, String> e : at.entrySet()) {
            JsonNode v = o;
            for (String step : e.getKey().split("/")) {
                v = v.path(step);
            }
            String key = e.getValue();
            switch (key) {
                case "grptres", "maxtres", "maxtrespernode" -> {
                    Optional<String> tres = TresLists.text(v, where + e.getKey(), known);
                    if (tres.isPresent()) {
                        switch (key) {
                            case "grptres" -> limits.setGrpTres(tres.get());
                            case "maxtres" -> limits.setMaxTres(tres.get());
                            default -> limits.setMaxTresPerNode(tres.get());
                        }
                    }
                }
                case "qos" -> {
                    List<String> qos = DbWrites.strings(o, e.getKey());
                    if (!qos.isEmpty()) {
                        limits.setQos(String.join(",", qos));
                    }
                }
                case "defaultqos" -> {
                    if (!v.isMissingNode() && !v.isNull()) {
                        if (!v.isTextual()) {
                            throw new DbWrites.BadBody(where + e.getKey() + " must be a QOS name");
                        }
                        if (!v.asText().isBlank()) {
                            limits.setDefaultQos(v.asText().strip());
                        }
                    }
                }
                default -> {
                    Optional<Long> n = DbWrites.count(v, where + e.getKey());
                    if (n.isPresent() && n.get() == DbWrites.INFINITE) {
                        cleared.add(key);
                    } else if (n.isPresent()) {
                        int value = n.get().intValue();
                        switch (key) {
                            case "fairshare" -> limits.setShares(value);
                            case "maxjobs" -> limits.setMaxJobs(value);
                            case "maxsubmitjobs" -> limits.setMaxSubmitJobs(value);
                            case "grpjobs" -> limits.setGrpJobs(value);
                            case "grpsubmitjobs" -> limits.setGrpSubmitJobs(value);
                            default -> limits.setMaxWallMinutes(value);
                        }
                    }
                }
            }
        }
        return new Read(limits.build(), cleared);
    }
}
