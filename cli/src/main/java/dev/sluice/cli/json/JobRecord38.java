package dev.sluice.cli.json;

import dev.sluice.cli.view.GresText;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job as Slurm 22.05's data parser v0.0.38 writes it ({@code job_response_properties}), the
 * one owner of that record: slurmrestd's v0.0.38 job listing and {@code squeue --json} print the
 * same parser's output (compat scenarios 141, 142 and 146). The values scontrol show job prints,
 * flat, NO_VAL as {@code null}, members in 22.05.8's order. Fields of Slurm features Sluice does
 * not have (federation, heterogeneous jobs, burst buffers, containers) carry their unset values.
 * Pure.
 */
public final class JobRecord38 {
    private JobRecord38() {}

    /**
     * Writes the job as one object (a value where {@code w} expects one).
     *
     * @param nodes the cluster's nodes, for the sockets and cores of the job's CPUs
     */
    public static void write(JsonWriter o, JobView v, String cluster, Map<String, NodeInfo> nodes) {
        JobInfo job = v.info();
        JobSpec spec = v.spec();
        o.beginObject();
        o.field("account", spec.getAccount());
        o.field("accrue_time", job.getAccrueTime());
        o.field("admin_comment", "");
        o.field("array_job_id", job.getArrayJobId());
        if (job.getArrayJobId() == 0 || job.getArrayTaskId() < 0) {
            o.nullField("array_task_id");
        } else {
            o.field("array_task_id", job.getArrayTaskId());
        }
        o.field("array_max_tasks", v.arrayThrottle().orElse(0));
        o.field("array_task_string", job.getArrayTaskStr());
        o.field("association_id", job.getAssociationId());
        o.field("batch_features", "");
        o.field("batch_flag", job.getBatchFlag());
        o.field("batch_host", job.getBatchHost());
        o.field("flags", holds(job) ? List.of("JOB_WAS_RUNNING") : List.of());
        o.field("burst_buffer", "");
        o.field("burst_buffer_state", "");
        o.field("cluster", cluster);
        o.field("cluster_features", "");
        o.field("command", spec.getCommand());
        o.field("comment", spec.getComment());
        o.field("container", "");
        o.field("contiguous", false);
        o.nullField("core_spec");
        o.nullField("thread_spec");
        o.nullField("cores_per_socket");
        if (job.getAllocTres().isEmpty()) {
            o.nullField("billable_tres"); // computed when the job starts
        } else {
            o.name("billable_tres").value(billable(job));
        }
        positiveOrNull(o, "cpus_per_task", spec.getCpusPerTask());
        o.nullField("cpu_frequency_minimum");
        o.nullField("cpu_frequency_maximum");
        o.nullField("cpu_frequency_governor");
        o.field("cpus_per_tres", v.cpusPerTres());
        o.field("deadline", spec.getDeadline());
        o.field("delay_boot", 0);
        o.field("dependency", job.getDependency());
        o.field("derived_exit_code", job.getDerivedExitStatus());
        o.field("eligible_time", job.getEligibleTime());
        o.field("end_time", endTime(v));
        o.field("excluded_nodes", spec.getExcludeNodes());
        o.field("exit_code", job.getExitStatus());
        o.field("features", spec.getConstraint());
        o.field("federation_origin", "");
        o.field("federation_siblings_active", "");
        o.field("federation_siblings_viable", "");
        o.name("gres_detail").beginArray();
        if (holds(job)) {
            for (NodeGres held : job.getNodeGresList()) {
                if (held.getGrantsCount() > 0) {
                    o.value(GresText.ofNode(held.getGrantsList()));
                }
            }
        }
        o.endArray();
        o.field("group_id", v.gid());
        o.field("group_name", v.groupName());
        o.field("job_id", job.getJobId());
        if (!job.getNodeList().isEmpty()) {
            o.name("job_resources");
            resources(o, job, nodes);
        }
        String state = JobView.orNull(v.stateName());
        if (state == null) {
            o.nullField("job_state");
        } else {
            o.field("job_state", state);
        }
        o.field("last_sched_evaluation", job.getLastSchedEval());
        o.field("licenses", spec.getLicenses());
        o.field("max_cpus", 0);
        // A pending job shows the maximum it asked for; one that started, none (as 22.05 does).
        o.field("max_nodes", job.getState() == JobState.PENDING ? spec.getMaxNodes() : 0);
        o.field("mcs_label", "");
        o.field("memory_per_tres", v.memPerTres());
        o.field("name", spec.getName());
        o.field("nodes", job.getNodeList());
        if (spec.getNice() == 0) {
            o.nullField("nice");
        } else {
            o.field("nice", spec.getNice());
        }
        o.nullField("tasks_per_core");
        o.field("tasks_per_node", spec.getNtasksPerNode());
        o.nullField("tasks_per_socket");
        o.field("tasks_per_board", 0);
        o.field("cpus", v.cpuCount());
        o.field("node_count", v.nodeCount());
        o.field("tasks", Math.max(1, spec.getNumTasks()));
        o.field("het_job_id", 0);
        o.field("het_job_id_set", "");
        o.field("het_job_offset", 0);
        o.field("partition", v.partition());
        o.field("prefer", "");
        positiveOrNull(o, "memory_per_node", spec.getMemPerNodeMb());
        positiveOrNull(o, "memory_per_cpu", spec.getMemPerCpuMb());
        o.field("minimum_cpus_per_node", v.minCpusPerNode());
        o.field("minimum_tmp_disk_per_node", 0);
        o.field("preempt_time", 0);
        o.field("pre_sus_time", job.getPreSuspendSeconds());
        o.field("priority", Integer.toUnsignedLong(job.getPriority()));
        o.nullField("profile");
        o.field("qos", spec.getQos());
        o.field("reboot", false);
        o.field("required_nodes", spec.getReqNodes());
        o.field("requeue", job.getRequeue());
        o.field("resize_time", 0);
        o.field("restart_cnt", job.getRestartCount());
        o.field("resv_name", spec.getReservation());
        o.nullField("shared");
        o.field("show_flags", List.of("SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"));
        o.field("sockets_per_board", 0);
        o.nullField("sockets_per_node");
        o.field("start_time", job.getStartTime());
        o.field("state_description", job.getReasonDetail());
        o.field("state_reason", v.reason());
        o.field("standard_error", spec.getStdErr());
        o.field("standard_input", spec.getStdIn());
        o.field("standard_output", spec.getStdOut());
        o.field("submit_time", job.getSubmitTime());
        o.field("suspend_time", job.getSuspendTime());
        o.field("system_comment", "");
        minutesOrNull(o, "time_limit", job.getTimeLimitMinutes());
        o.field("time_minimum", 0);
        o.nullField("threads_per_core");
        o.field("tres_bind", "");
        o.field("tres_freq", "");
        o.field("tres_per_job", v.tresPerJob());
        o.field("tres_per_node", v.tresPerNode().equals("N/A") ? "" : v.tresPerNode());
        o.field("tres_per_socket", "");
        o.field("tres_per_task", v.tresPerTask());
        o.field("tres_req_str", job.getReqTres());
        o.field("tres_alloc_str", job.getAllocTres());
        o.field("user_id", v.uid());
        o.field("user_name", v.userName());
        // As the controller holds it: "*name" for the user's default wckey taken, "*" for none
        // under TrackWCKey=yes, empty without it (compat 233, 146).
        o.field("wckey", spec.getWckey());
        o.field("current_working_directory", v.workDir());
        o.endObject();
    }

    /** A pending job with an expected start is expected to end one time limit later. */
    private static long endTime(JobView v) {
        long limit = v.timeLimitMinutes();
        if (v.state() == JobState.PENDING
                && v.info().getStartTime() > 0
                && limit != TimeLimit.INFINITE
                && limit != TimeLimit.NOT_SET) {
            return v.info().getStartTime() + limit * 60;
        }
        return v.endTime();
    }

    /** The job's billing TRES, of what it holds. */
    private static double billable(JobInfo job) {
        return Tres.parse(job.getAllocTres())
                .asMap()
                .getOrDefault("billing", 0L)
                .doubleValue();
    }

    /**
     * The CPUs held, node by node, as sockets and cores: CPU ids count threads within cores
     * within sockets, so the node's layout turns each into its socket and core.
     */
    private static void resources(JsonWriter o, JobInfo job, Map<String, NodeInfo> nodes) {
        o.beginObject();
        o.field("nodes", job.getNodeList());
        o.field("allocated_cores", Integer.toUnsignedLong(job.getNumCpus()));
        o.field("allocated_hosts", Integer.toUnsignedLong(job.getNumNodes()));
        o.name("allocated_nodes").beginArray();
        for (NodeGres held : job.getNodeGresList()) {
            NodeInfo node = nodes.get(held.getNode());
            int threads = node == null ? 1 : Math.max(1, node.getThreadsPerCore());
            int cores = node == null ? Integer.MAX_VALUE : Math.max(1, node.getCoresPerSocket());
            // Sockets and cores in the order of the first CPU on each; a core's threads once.
            Map<Integer, Set<Integer>> sockets = new LinkedHashMap<>();
            for (int cpu : held.getCpuIdsList()) {
                int core = cpu / threads;
                sockets.computeIfAbsent(core / cores, k -> new LinkedHashSet<>())
                        .add(core % cores);
            }
            o.beginObject();
            o.name("sockets").beginObject();
            sockets.forEach((socket, coreSet) -> {
                o.name(Integer.toString(socket)).beginObject();
                o.name("cores").beginObject();
                coreSet.forEach(c -> o.field(Integer.toString(c), "allocated"));
                o.endObject();
                o.endObject();
            });
            o.endObject();
            o.field("nodename", held.getNode());
            o.field("cpus_used", 0);
            o.field("memory_used", 0);
            o.field("memory_allocated", held.getMemoryMb());
            o.endObject();
        }
        o.endArray();
        o.endObject();
    }

    /** Whether the job holds its nodes now (22.05's JOB_WAS_RUNNING and GRES details). */
    private static boolean holds(JobInfo job) {
        return job.getState() == JobState.RUNNING || job.getState() == JobState.SUSPENDED;
    }

    private static void minutesOrNull(JsonWriter o, String key, int wire) {
        if (wire == 0 || wire == SlurmLimits.INFINITE32 || wire == SlurmLimits.NO_VAL32) {
            o.nullField(key);
        } else {
            o.field(key, Integer.toUnsignedLong(wire));
        }
    }

    private static void positiveOrNull(JsonWriter o, String key, long value) {
        if (value > 0) {
            o.field(key, value);
        } else {
            o.nullField(key);
        }
    }
}
