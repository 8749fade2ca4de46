package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scontrol write batch_script JOBID [FILE|-]}. Slurm 22.05 exits 0 even when the job is
 * unknown or another user's (it prints {@code job script retrieval failed: ...}), or when the
 * file cannot be opened ({@code failed to open file `F`: REASON}), and says nothing without a
 * job id; all kept. The file is opened with the caller's rights, never the agent's.
 */
final class ScontrolWrite {
    private ScontrolWrite() {}

    static int run(Invocation inv, List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || !args.get(0).toLowerCase(Locale.ROOT).equals("batch_script")) {
            err.println("invalid write argument:" + (args.isEmpty() ? "" : args.get(0)));
            return 1;
        }
        if (args.size() < 2) {
            return 0;
        }
        String id = args.get(1);
        String target = args.size() > 2 ? args.get(2) : "slurm-" + id + ".sh";
        if (!id.matches("[0-9]{1,10}")) {
            err.println("job script retrieval failed: " + ErrorCode.INVALID_JOB_ID.text());
            return 0;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, ScontrolCommand.PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        int wanted = (int) Long.parseLong(id);
        Optional<JobInfo> job;
        try {
            job = client
                    .get()
                    .call(ClientRequest.newBuilder()
                            .setGetJobs(GetJobsRequest.newBuilder()
                                    .addJobIds(wanted)
                                    .setIncludeScript(true)))
                    .getGetJobs()
                    .getJobsList()
                    .stream()
                    .filter(j -> j.getJobId() == wanted)
                    .findFirst();
        } catch (ControllerException e) {
            err.println("job script retrieval failed: " + e.getMessage());
            return 0;
        }
        if (job.isEmpty()) {
            err.println("job script retrieval failed: " + ErrorCode.INVALID_JOB_ID.text());
            return 0;
        }
        // Bytes as submitted: a script in Latin-1 comes back in Latin-1.
        byte[] script = job.get().getSpec().getScript().toByteArray();
        if (script.length == 0) {
            // salloc and srun jobs have none; Slurm's controller answers so.
            err.println("job script retrieval failed: " + ErrorCode.JOB_SCRIPT_MISSING.text());
            return 0;
        }
        if (target.equals("-")) {
            out.write(script, 0, script.length);
            return 0;
        }
        try {
            // Opened by the caller (through sluice-agent: by the caller's front end), never as root.
            inv.callerSide().write(target, script, false);
        } catch (CallerFileException e) {
            err.println("failed to open file `" + target + "`: " + e.reason());
            return 0;
        }
        out.println("batch script for job " + id + " written to " + target);
        return 0;
    }
}
