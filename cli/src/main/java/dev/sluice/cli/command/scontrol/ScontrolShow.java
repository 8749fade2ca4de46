package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.view.JobSelector;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** {@code scontrol show ENTITY [ID]}; the host list entities work without a controller. */
final class ScontrolShow {
    private final Invocation inv;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean oneLiner;
    private final ShowFlags flags;
    private final boolean details;

    ScontrolShow(Invocation inv, PrintStream out, PrintStream err, ShowFlags flags) {
        this.inv = inv;
        this.out = out;
        this.err = QuietErrors.of(err, flags.quiet());
        this.oneLiner = flags.oneLiner();
        this.flags = flags;
        this.details = flags.details();
    }

    /** A "not found" line, on standard output as in Slurm; {@code -Q} leaves it out. */
    private void notFound(String line) {
        if (!flags.quiet()) {
            out.println(line);
        }
    }

    /** {@code -v}: the line scontrol prints before a listing (Sluice's data is always current). */
    private void records(int count, boolean dated) {
        if (flags.verbose()) {
            // Slurm's one-job load carries no update time: "Unknown".
            String time = dated
                    ? dev.sluice.common.time.SlurmTimestamp.format(
                            inv.clock().instant(), inv.clock().getZone())
                    : "Unknown";
            out.println("last_update_time=" + time + ", records=" + count);
        }
    }

    int run(List<String> args) {
        if (args.isEmpty()) {
            err.println("too few arguments for keyword:show");
            return 1;
        }
        if (args.size() > 2) {
            err.println("too many arguments for keyword:show");
            return 1;
        }
        String entity = entity(args.get(0).toLowerCase(Locale.ROOT));
        String id = args.size() > 1 ? args.get(1) : null;
        return switch (entity) {
            case "jobs", "jobid" -> jobs(id);
            case "nodes", "nodename" -> nodes(id);
            case "partitions", "partitionname" -> partitions(id);
            case "steps" -> steps(id);
            case "config" -> ShowConfigCommand.run(inv, out, err);
            case "licenses" -> LicenseShow.run(inv, id, oneLiner, out, err);
            case "reservations", "reservationname" -> ReservationShow.run(inv, id, oneLiner, out, err);
            case "scalein" -> scaleIn(id);
            case "hostnames" -> HostListShow.hostnames(inv, id, out, err);
            case "hostlist" -> HostListShow.hostlist(inv, id, false, out, err);
            case "hostlistsorted" -> HostListShow.hostlist(inv, id, true, out, err);
            default -> {
                err.println("invalid entity:" + args.get(0) + " for keyword:show ");
                yield 1;
            }
        };
    }

    /**
     * Entity words may be abbreviated, each down to the shortest prefix Slurm 22.05 accepts
     * ({@code n}, {@code pa}, {@code hostn}); a word that is no such prefix is returned as is.
     */
    static String entity(String word) {
        for (Map.Entry<String, Integer> e : ENTITIES.entrySet()) {
            if (word.length() >= e.getValue() && e.getKey().startsWith(word)) {
                return e.getKey();
            }
        }
        return word;
    }

    // Longer names first, so that "hostlists" is hostlistsorted and "hostl" is hostlist.
    private static final Map<String, Integer> ENTITIES = orderedEntities();

    private static Map<String, Integer> orderedEntities() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("jobs", 1);
        m.put("nodes", 1);
        m.put("partitions", 2);
        m.put("config", 1);
        m.put("steps", 2);
        m.put("licenses", 2);
        m.put("reservations", 3);
        m.put("hostnames", 5);
        m.put("hostlistsorted", 9);
        m.put("hostlist", 5);
        return m;
    }

    private int jobs(String id) {
        Optional<JobSelector> selector = Optional.empty();
        if (id != null) {
            selector = JobSelector.parse(id);
            if (selector.isEmpty()) {
                err.println("scontrol_print_job error: Invalid job id specified");
                return 1;
            }
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<JobInfo> jobs;
        try {
            // All jobs, selected here: a job id also names its array's tasks.
            jobs = client.get()
                    .call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                    .getGetJobs()
                    .getJobsList();
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return 1;
        }
        java.time.Instant now = inv.clock().instant();
        List<JobView> shown = new ArrayList<>();
        for (JobInfo j : jobs) {
            JobView v = new JobView(j, now, inv.clock(), inv.users());
            if (selector.isEmpty() || !selector.get().matches(v)) {
                if (selector.isEmpty()) {
                    shown.add(v);
                }
                continue;
            }
            int task = selector.get().task();
            if (task >= 0 && j.getArrayTaskId() < 0) {
                // One pending task asked for is shown as itself (ArrayTaskId=5), as Slurm's
                // scontrol does with the record that stands for it.
                v = new JobView(j.toBuilder().setArrayTaskId(task).build(), now, inv.clock(), inv.users());
            }
            shown.add(v);
        }
        if (id != null && shown.isEmpty()) {
            err.println("slurm_load_jobs error: " + ErrorCode.INVALID_JOB_ID.text());
            return 1;
        }
        records(shown.size(), id == null);
        if (shown.isEmpty()) {
            out.println("No jobs in the system");
            return 0;
        }
        for (JobView v : JobRecordOrder.order(shown, selector)) {
            out.print(Layout.render(JobShow.lines(v, details), oneLiner));
        }
        return 0;
    }

    /**
     * {@code scontrol show step [JOB[.STEP]]}, with Slurm 22.05's messages: an unknown job is
     * {@code slurm_get_job_steps error: Invalid job id specified} (exit 1), a job without that
     * step {@code Job step 35.7 not found} (or {@code 35.} for a job without steps; exit 1).
     */
    private int steps(String id) {
        int jobId = 0;
        String stepPart = null;
        if (id != null) {
            int dot = id.indexOf('.');
            String job = dot < 0 ? id : id.substring(0, dot);
            stepPart = dot < 0 ? null : id.substring(dot + 1);
            boolean valid = !job.isEmpty()
                    && job.length() <= 10
                    && job.chars().allMatch(Character::isDigit)
                    && Long.parseLong(job) <= SlurmLimits.MAX_UINT32
                    && (stepPart == null
                            || stepPart.equals("batch")
                            || (!stepPart.isEmpty()
                                    && stepPart.length() <= 10
                                    && stepPart.chars().allMatch(Character::isDigit)
                                    && Long.parseLong(stepPart) <= SlurmLimits.MAX_UINT32));
            if (!valid) {
                err.println("slurm_get_job_steps error: " + ErrorCode.INVALID_JOB_ID.text());
                return 1;
            }
            jobId = (int) Long.parseLong(job);
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<dev.sluice.protocol.v1.StepInfo> steps;
        try {
            steps = client.get()
                    .call(ClientRequest.newBuilder()
                            .setGetSteps(dev.sluice.protocol.v1.GetStepsRequest.newBuilder()
                                    .setJobId(jobId)))
                    .getGetSteps()
                    .getStepsList();
        } catch (ControllerException e) {
            err.println("slurm_get_job_steps error: " + e.getMessage());
            return 1;
        }
        records(steps.size(), true);
        if (stepPart != null) {
            int wanted = stepPart.equals("batch") ? StepShow.BATCH_STEP : (int) Long.parseLong(stepPart);
            steps = steps.stream().filter(s -> s.getStepId() == wanted).toList();
        }
        if (steps.isEmpty()) {
            if (id == null) {
                out.println("No job steps in the system");
                return 0;
            }
            notFound("Job step " + jobId + "." + (stepPart == null ? "" : stepPart) + " not found");
            return 1;
        }
        for (var s : steps) {
            out.print(Layout.render(StepShow.lines(s, inv.clock().getZone()), oneLiner));
        }
        return 0;
    }

    private int nodes(String name) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<NodeInfo> nodes;
        try {
            nodes = loadNodes(client.get());
        } catch (ControllerException e) {
            err.println("slurm_load_node error: " + e.getMessage());
            return 1;
        }
        records(nodes.size(), true);
        if (name == null) {
            if (nodes.isEmpty()) {
                out.println("No nodes in the system");
            }
            nodes.forEach(this::printNode);
            return 0;
        }
        List<String> wanted;
        try {
            wanted = NodeNames.of(name);
        } catch (IllegalArgumentException e) {
            err.println("unable to parse node list " + name);
            return 1;
        }
        // As 22.05: each name in turn, shown or said to be missing (on stdout), exit 1 if any was.
        Map<String, NodeInfo> byName = byName(nodes);
        int rc = 0;
        for (String w : wanted) {
            NodeInfo n = byName.get(w);
            if (n == null) {
                notFound("Node " + w + " not found");
                rc = 1;
            } else {
                printNode(n);
            }
        }
        return rc;
    }

    private void printNode(NodeInfo n) {
        out.print(Layout.render(NodeShow.lines(n, inv.clock().getZone(), details), oneLiner));
    }

    /** {@code scontrol show scalein [NODELIST]}: see {@link ScaleInShow}. */
    private int scaleIn(String name) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<NodeInfo> nodes;
        List<JobInfo> jobs;
        try {
            nodes = loadNodes(client.get());
        } catch (ControllerException e) {
            err.println("slurm_load_node error: " + e.getMessage());
            return 1;
        }
        try {
            jobs = client.get()
                    .call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                    .getGetJobs()
                    .getJobsList();
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return 1;
        }
        Map<String, NodeInfo> byName = byName(nodes);
        List<NodeInfo> ranked = nodes;
        if (name != null) {
            List<String> wanted;
            try {
                wanted = HostList.expand(name);
            } catch (IllegalArgumentException e) {
                wanted = List.of(name);
            }
            java.util.Set<String> picked = java.util.Set.copyOf(wanted);
            // slurm.conf order, whatever order the list names them in: the ranking's last tie-break.
            ranked = nodes.stream().filter(n -> picked.contains(n.getName())).toList();
            if (ranked.isEmpty()) {
                notFound("Node " + name + " not found");
                return 1;
            }
        }
        if (ranked.isEmpty()) {
            out.println("No nodes in the system");
            return 0;
        }
        for (var c : ScaleInShow.rank(ranked, jobs, inv.clock().instant().getEpochSecond())) {
            out.print(Layout.render(ScaleInShow.lines(c, byName, inv.clock().getZone()), oneLiner));
        }
        return 0;
    }

    private int partitions(String name) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<PartitionInfo> partitions;
        List<NodeInfo> nodes;
        try {
            partitions = client.get()
                    .call(ClientRequest.newBuilder().setGetPartitions(GetPartitionsRequest.getDefaultInstance()))
                    .getGetPartitions()
                    .getPartitionsList();
            nodes = loadNodes(client.get());
        } catch (ControllerException e) {
            err.println("slurm_load_partitions error: " + e.getMessage());
            return 1;
        }
        // Without -a the controller leaves hidden partitions out, named ones too.
        List<PartitionInfo> visible =
                partitions.stream().filter(p -> flags.all() || !p.getHidden()).toList();
        records(visible.size(), true);
        List<PartitionInfo> shown = name == null
                ? visible
                : visible.stream().filter(p -> p.getName().equals(name)).toList();
        if (name != null && shown.isEmpty()) {
            notFound("Partition " + name + " not found");
            return 1;
        }
        if (shown.isEmpty()) {
            out.println("No partitions in the system");
            return 0;
        }
        Map<String, NodeInfo> byName = byName(nodes);
        for (PartitionInfo p : shown) {
            out.print(Layout.render(PartitionShow.lines(p, byName), oneLiner));
        }
        return 0;
    }

    private static List<NodeInfo> loadNodes(ControllerClient client) throws ControllerException {
        return client.call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                .getGetNodes()
                .getNodesList();
    }

    private static Map<String, NodeInfo> byName(List<NodeInfo> nodes) {
        Map<String, NodeInfo> m = new LinkedHashMap<>();
        nodes.forEach(n -> m.put(n.getName(), n));
        return m;
    }
}
