package dev.sluice.cli.command.scancel;

import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** scancel's {@code -i} (ask before each job) and {@code --sibling} (federation only). */
final class Interactive {
    private Interactive() {}

    /**
     * The jobs the user agreed to: each selected job is asked about on standard output as
     * 22.05 asks (always "Cancel", whatever the signal). An id that names no active job is
     * kept without asking, as Slurm sends it and reports the controller's answer.
     */
    static Optional<List<String>> confirm(
            ControllerClient client,
            SignalJobRequest.Builder req,
            Integer signo,
            InputStream stdin,
            PrintStream out,
            PrintStream err) {
        try {
            List<String> targets = new ArrayList<>(req.getJobIdsList());
            if (targets.isEmpty()) {
                SignalJobRequest.Builder list = req.clone().setListOnly(true);
                for (SignalJobResponse.Result r : client.call(
                                ClientRequest.newBuilder().setSignalJob(list))
                        .getSignalJob()
                        .getResultsList()) {
                    targets.add(r.getJobId());
                }
            }
            List<JobInfo> jobs = load(client, targets);
            BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
            List<String> confirmed = new ArrayList<>();
            for (String target : targets) {
                Optional<JobInfo> job = find(jobs, target);
                if (job.isEmpty()) {
                    confirmed.add(target);
                    continue;
                }
                out.print("Cancel job_id=" + target + " name="
                        + job.get().getSpec().getName() + " partition="
                        + job.get().getPartition() + " [y/n]? ");
                out.flush();
                // Slurm asks again at end of input; Sluice takes that as "no" rather than loop.
                String answer = in.readLine();
                if (answer != null && (answer.startsWith("y") || answer.startsWith("Y"))) {
                    confirmed.add(target);
                }
            }
            return Optional.of(confirmed);
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return Optional.empty();
        } catch (IOException e) {
            err.println("scancel: error: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * {@code --sibling}: Sluice runs no federation, so an active job is never a federated one
     * (22.05 answers so, exit 191 = 7103 mod 256); an unknown id is as silent as a plain cancel.
     */
    static int noSibling(ControllerClient client, List<String> ids, PrintStream err) {
        List<JobInfo> jobs;
        try {
            jobs = load(client, ids);
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return 1;
        }
        int rc = 0;
        for (String id : ids) {
            if (find(jobs, id).isPresent()) {
                err.println(
                        "scancel: error: Kill job error on job id " + id + ": " + ErrorCode.JOB_NOT_FEDERATED.text());
                rc = ErrorCode.JOB_NOT_FEDERATED.number() & 0xff;
            }
        }
        return rc;
    }

    private static List<JobInfo> load(ControllerClient client, List<String> targets) throws ControllerException {
        GetJobsRequest.Builder req = GetJobsRequest.newBuilder().setActiveOnly(true);
        targets.forEach(t -> req.addFamilyIds(leadingId(t)));
        return client.call(ClientRequest.newBuilder().setGetJobs(req))
                .getGetJobs()
                .getJobsList();
    }

    private static Optional<JobInfo> find(List<JobInfo> jobs, String target) {
        int id = leadingId(target);
        return jobs.stream().filter(j -> j.getJobId() == id).findFirst();
    }

    private static int leadingId(String target) {
        int end = 0;
        while (end < target.length() && Character.isDigit(target.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : (int) Long.parseLong(target.substring(0, end));
    }
}
