package dev.sluice.common.conf;

import java.util.Map;
import java.util.TreeMap;

/** Value types of the sub-keys of line-type keys (slurm.conf(5), node and partition sections). */
final class SubKeyTypes {
    private SubKeyTypes() {}

    private static final Map<String, SlurmConfKeys.Type> TYPES = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        put(
                "NodeName",
                SlurmConfKeys.Type.UINT16,
                "Boards CoreSpecCount CoresPerSocket CPUs Procs Sockets"
                        + " SocketsPerBoard ThreadsPerCore RestrictedCoresPerGPU");
        put("NodeName", SlurmConfKeys.Type.UINT32, "TmpDisk Weight");
        put("NodeName", SlurmConfKeys.Type.UINT64, "MemSpecLimit RealMemory");
        put(
                "PartitionName",
                SlurmConfKeys.Type.UINT16,
                "Priority PriorityJobFactor PriorityTier ResumeTimeout" + " SuspendTimeout");
        put("PartitionName", SlurmConfKeys.Type.UINT32, "GraceTime MaxCPUsPerNode MaxCPUsPerSocket MaxNodes MinNodes");
        put(
                "PartitionName",
                SlurmConfKeys.Type.UINT64,
                "DefCPUPerGPU DefMemPerCPU DefMemPerGPU DefMemPerNode" + " MaxMemPerCPU MaxMemPerNode");
        put(
                "PartitionName",
                SlurmConfKeys.Type.BOOLEAN,
                "Default DisableRootJobs ExclusiveUser ExclusiveTopo Hidden" + " LLN PowerDownOnIdle RootOnly ReqResv");
        put("FrontendName", SlurmConfKeys.Type.UINT16, "Port");
    }

    private static void put(String lineKey, SlurmConfKeys.Type type, String names) {
        for (String n : names.split(" ")) {
            TYPES.put(lineKey + "." + n, type);
        }
    }

    static SlurmConfKeys.Type type(String lineKey, String subKey) {
        return TYPES.getOrDefault(lineKey + "." + subKey, SlurmConfKeys.Type.STRING);
    }
}
