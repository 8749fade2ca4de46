package dev.sluice.restd.slurmdb;

import java.util.Map;

/**
 * Where the QOS settings sluice-dbd keeps sit in a {@code POST qos} body, by the sacctmgr key
 * each sets, as every data parser version since v0.0.38 places them; and the data parsers'
 * preempt modes in sacctmgr's words. Read by dbv0038's QOS reader and by {@link QosChanges}.
 */
public final class QosLimits {
    /** Counts: a whole number in v0.0.38, {@code {"set", "infinite", "number"}} since. */
    public static final Map<String, String> COUNTS = Map.of(
            "limits/grace_time", "gracetime",
            "limits/max/active_jobs/count", "grpjobs",
            "limits/max/jobs/active_jobs/per/user", "maxjobsperuser",
            "limits/max/jobs/per/user", "maxsubmitjobsperuser",
            "limits/max/wall_clock/per/job", "maxwall",
            "preempt/exempt_time", "preemptexempttime");

    /** TRES lists. */
    public static final Map<String, String> TRES = Map.of(
            "limits/max/tres/per/job", "maxtresperjob",
            "limits/max/tres/per/user", "maxtresperuser",
            "limits/max/tres/per/account", "maxtresperaccount",
            "limits/max/tres/per/node", "maxtrespernode",
            "limits/max/tres/total", "grptres");

    /** Preempt modes; DISABLED and GANG leave the cluster's. */
    public static final Map<String, String> MODES = Map.of(
            "DISABLED", "cluster", "CANCEL", "cancel", "REQUEUE", "requeue", "SUSPEND", "suspend", "GANG", "cluster");

    private QosLimits() {}
}
