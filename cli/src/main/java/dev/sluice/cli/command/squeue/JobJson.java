package dev.sluice.cli.command.squeue;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.json.JobRecord38;
import dev.sluice.cli.json.JsonWriter;
import dev.sluice.cli.json.SlurmEnvelope;
import dev.sluice.cli.json.SlurmYaml;
import dev.sluice.cli.view.JobView;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.NodeInfo;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code squeue --json} and {@code --yaml}: Slurm 22.05 dumps every job the controller holds
 * (finished ones within MinJobAge too) as data parser v0.0.38 records, by job id, and applies
 * none of squeue's filters: {@code -j}, {@code -t}, {@code -u}, {@code -p} and the rest leave the
 * document as it is, and an unknown {@code -j} is no error (compat scenario 146, 22.05.8). The
 * records are {@link JobRecord38}'s, the ones the REST daemon's v0.0.38 answers carry; the nodes
 * are asked for only here, for the sockets and cores of {@code job_resources}.
 */
final class JobJson {
    private JobJson() {}

    /** Asks for the jobs and nodes and prints the document; 0, or 1 when the controller fails. */
    static int report(
            Invocation inv, PrintStream out, PrintStream err, ControllerClient client, boolean yaml, String cluster) {
        List<JobInfo> jobs;
        Map<String, NodeInfo> nodes = new LinkedHashMap<>();
        try {
            jobs = client.call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                    .getGetJobs()
                    .getJobsList();
            client.call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                    .getGetNodes()
                    .getNodesList()
                    .forEach(n -> nodes.put(n.getName(), n));
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return 1;
        }
        Instant now = inv.clock().instant();
        List<JobView> views = new ArrayList<>();
        for (JobInfo j : jobs) {
            views.add(new JobView(j, now, inv.clock(), inv.users()));
        }
        String document = document(views, cluster, nodes);
        out.print(yaml ? SlurmYaml.fromJson(document) : document);
        return 0;
    }

    /** The whole document: the envelope and the jobs, by job id. Pure. */
    static String document(List<JobView> jobs, String cluster, Map<String, NodeInfo> nodes) {
        List<JobView> sorted = new ArrayList<>(jobs);
        sorted.sort(
                Comparator.comparingLong(v -> Integer.toUnsignedLong(v.info().getJobId())));
        JsonWriter w = SlurmEnvelope.open();
        w.name("jobs").beginArray();
        for (JobView j : sorted) {
            JobRecord38.write(w, j, cluster, nodes);
        }
        w.endArray();
        return w.endObject().toString();
    }
}
