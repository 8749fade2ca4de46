package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.command.scancel.ScancelCommand;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.sinfo.SinfoCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Error texts and exit statuses of squeue, sinfo, scontrol and scancel, each observed with
 * Slurm 22.05 on the same command line (unreachable controller: SlurmctldPort pointed at a
 * closed port).
 */
class TestCommandErrors {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_JOBS -> Answers.jobs(Fixtures.jobs());
        case PING -> Answers.ping("test");
        case UPDATE_NODE ->
            ClientResponse.newBuilder()
                    .setUpdateNode(UpdateNodeResponse.getDefaultInstance())
                    .build();
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private Output run(Command c, String... args) {
        return cli.run(c, args);
    }

    private static Output err(int rc, String err) {
        return new Output(rc, "", err);
    }

    @Test
    void unreachableController() throws IOException {
        cli.controller().close();
        String refused = "Unable to contact slurm controller (connect failure)";
        assertThat(run(new SqueueCommand())).isEqualTo(err(1, "slurm_load_jobs error: " + refused + "\n"));
        assertThat(run(new SinfoCommand())).isEqualTo(err(1, "slurm_load_partitions: " + refused + "\n"));
        assertThat(run(new ScontrolCommand(), "show", "job"))
                .isEqualTo(err(1, "slurm_load_jobs error: " + refused + "\n"));
        assertThat(run(new ScontrolCommand(), "show", "node"))
                .isEqualTo(err(1, "slurm_load_node error: " + refused + "\n"));
        assertThat(run(new ScontrolCommand(), "show", "partition"))
                .isEqualTo(err(1, "slurm_load_partitions error: " + refused + "\n"));
        assertThat(run(new ScontrolCommand(), "update", "nodename=n1", "state=resume"))
                .isEqualTo(err(1, "slurm_update error: " + refused + "\n"));
        // scancel exits 8 here (observed), not an errno-derived status.
        assertThat(run(new ScancelCommand(), "5", "6"))
                .isEqualTo(err(
                        8,
                        "scancel: error: Kill job error on job id 5: " + refused + "\n"
                                + "scancel: error: Kill job error on job id 6: " + refused + "\n"));
        assertThat(run(new ScontrolCommand(), "ping"))
                .isEqualTo(new Output(
                        1,
                        "Slurmctld(primary) at ctl is DOWN\n"
                                + "*****************************************\n"
                                + "** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
                                + "*****************************************\n",
                        ""));
    }

    @Test
    void missingConfiguration() {
        Output o = TestingInvocations.run(
                new SqueueCommand(), invocation(cli.dir(), Map.of("SLURM_CONF", "/nonexistent/slurm.conf"), ""));
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(o.err())
                .contains("/nonexistent/slurm.conf")
                .endsWith("squeue: fatal: Unable to process configuration file\n");
    }

    @Test
    void pingUp() {
        assertThat(run(new ScontrolCommand(), "ping"))
                .isEqualTo(new Output(0, "Slurmctld(primary) at ctl is UP\n", ""));
    }

    @Test
    void squeueArgumentErrors() {
        assertThat(run(new SqueueCommand(), "-j", "abc")).isEqualTo(err(1, "squeue: error: Invalid job id: abc\n"));
        assertThat(run(new SqueueCommand(), "--foo"))
                .isEqualTo(err(1, "squeue: unrecognized option '--foo'\nTry \"squeue --help\" for more information\n"));
        assertThat(run(new SqueueCommand(), "--j").err())
                .startsWith("squeue: option '--j' is ambiguous; possibilities: '--jobs' '--json'\n");
        Output badState = run(new SqueueCommand(), "-t", "bogus");
        assertThat(badState.exitCode()).isEqualTo(1);
        assertThat(badState.err())
                .startsWith("squeue: error: Invalid job state specified: bogus\n"
                        + "squeue: error: Valid job states include: PENDING,RUNNING,SUSPENDED,")
                .endsWith(",STOPPED\n\n");
        // Unknown users are reported, then the listing is simply empty (exit 0).
        Output badUser = run(new SqueueCommand(), "-u", "nosuch");
        assertThat(badUser.err()).isEqualTo("squeue: error: Invalid user: nosuch\n\n");
        assertThat(badUser.exitCode()).isZero();
        assertThat(badUser.out()).hasLineCount(1);
        Output badSort = run(new SqueueCommand(), "-S", "bogus");
        assertThat(badSort.err()).isEqualTo("squeue: error: Invalid sort specification: s\n");
        assertThat(badSort.exitCode()).isEqualTo(1);
        Output badLetter = run(new SqueueCommand(), "-h", "-o", "%i %!");
        assertThat(badLetter.err()).isEqualTo("squeue: error: Invalid job format specification: !\n");
        assertThat(badLetter.out()).startsWith("3 %!\n");
    }

    @Test
    void squeueStartSortsByExpectedStart() {
        long t = dev.sluice.cli.testing.Fixtures.SUBMIT;
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setGetJobs(GetJobsResponse.newBuilder()
                                .addJobs(Fixtures.pending3().toBuilder().setStartTime(t + 7200))
                                .addJobs(Fixtures.pending4().toBuilder().setStartTime(t + 3600))
                                .addJobs(Fixtures.held5()))
                        .build());
        // squeue(1): --start lists pending jobs "in order of increasing start time"; Slurm 22.05
        // lists those without one (N/A) after them (compat 261).
        assertThat(run(new SqueueCommand(), "--start", "-h", "-o", "%i %S").out())
                .isEqualTo("4 2026-11-29T09:46:57\n3 2026-11-29T10:46:57\n5 N/A\n");
    }

    @Test
    void commandShowsTheScriptAndItsArguments() {
        // sbatch -H sub/x.sh a b in /tmp/ref: squeue %o and scontrol Command= (Slurm 22.05)
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setGetJobs(GetJobsResponse.newBuilder()
                                .addJobs(Fixtures.held5().toBuilder()
                                        .setJobId(3)
                                        .setSpec(Fixtures.wrapSpec()
                                                .setName("x.sh")
                                                .setWrapped(false)
                                                .setCommand("/tmp/ref/sub/x.sh")
                                                .addScriptArgs("a")
                                                .addScriptArgs("b"))))
                        .build());
        assertThat(run(new SqueueCommand(), "-h", "-o", "%i %j %o").out()).isEqualTo("3 x.sh /tmp/ref/sub/x.sh a b\n");
        assertThat(run(new ScontrolCommand(), "show", "job", "3").out())
                .contains("\n   Command=/tmp/ref/sub/x.sh a b\n");
    }

    @Test
    void squeueFieldNames() {
        // Slurm 22.05, one cancelled job "busy" (id 1) by root in partition gpu:
        //   squeue -t all -O "jobid:5,name:.10,state:.3"  ->  "JOBID      NAMESTA" / "1          busyCAN"
        //   squeue -t all -O "name:10:"                   ->  "NAME      :" / "busy      :"
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setGetJobs(GetJobsResponse.newBuilder()
                                .addJobs(Fixtures.job(1, Fixtures.wrapSpec().setName("busy"), JobState.CANCELLED)))
                        .build());
        assertThat(run(new SqueueCommand(), "-t", "all", "-O", "jobid:5,name:.10,state:.3")
                        .out())
                .isEqualTo("JOBID      NAMESTA\n1          busyCAN\n");
        assertThat(run(new SqueueCommand(), "-t", "all", "-O", "name:10:").out())
                .isEqualTo("NAME      :\nbusy      :\n");
        assertThat(run(new SqueueCommand(), "-t", "all", "-O", "name,state").out())
                .isEqualTo("NAME                STATE               \nbusy                CANCELLED           \n");
        Output bad = run(new SqueueCommand(), "-t", "all", "-O", "bogus");
        assertThat(bad.err()).isEqualTo("squeue: error: Invalid job format specification: bogus\n");
        assertThat(bad.out()).isEqualTo("\n\n");
        assertThat(bad.exitCode()).isZero();
    }

    @Test
    void squeueUnknownSingleJob() {
        assertThat(run(new SqueueCommand(), "-j", "99"))
                .isEqualTo(err(1, "slurm_load_jobs error: Invalid job id specified\n"));
        // A list of ids is a filter: no error when none matches.
        assertThat(run(new SqueueCommand(), "-j", "99,98").exitCode()).isZero();
    }

    @Test
    void scontrolArgumentErrors() {
        assertThat(run(new ScontrolCommand(), "show", "job", "99"))
                .isEqualTo(err(1, "slurm_load_jobs error: Invalid job id specified\n"));
        assertThat(run(new ScontrolCommand(), "show", "bogus"))
                .isEqualTo(err(1, "invalid entity:bogus for keyword:show \n"));
        assertThat(run(new ScontrolCommand(), "bogus")).isEqualTo(err(1, "invalid keyword: bogus\n"));
        assertThat(run(new ScontrolCommand(), "sh", "jo")).isEqualTo(err(1, "invalid keyword: sh\n"));
        assertThat(run(new ScontrolCommand(), "update", "nodename=n1", "state=bogus"))
                .isEqualTo(err(
                        1,
                        "Invalid input: state=bogus\nRequest aborted\n"
                                + "Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n"
                                + "Not all states are valid given a node's prior state\n"));
        assertThat(run(new ScontrolCommand(), "update", "NodeName=n1", "State=FOO"))
                .isEqualTo(err(
                        1,
                        "Invalid input: State=FOO\nRequest aborted\n"
                                + "Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n"
                                + "Not all states are valid given a node's prior state\n"));
        assertThat(run(new ScontrolCommand(), "update", "nodename=n1", "state=drain"))
                .isEqualTo(err(1, "You must specify a reason when DOWNING or DRAINING a node. Request denied\n"));
        assertThat(cli.controller().requests())
                .extracting(r -> r.getBodyCase().name())
                .containsExactly("GET_JOBS");
    }

    @Test
    void scontrolUpdateSendsTheRequest() {
        assertThat(run(new ScontrolCommand(), "update", "NodeName=n[1-2]", "State=DRAIN", "Reason=\"bad gpu\""))
                .isEqualTo(new Output(0, "", ""));
        var update = cli.controller().requests().get(0).getUpdateNode();
        assertThat(update.getNodeNames()).isEqualTo("n[1-2]");
        assertThat(update.getState()).isEqualTo(dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_DRAIN);
        assertThat(update.getReason()).isEqualTo("bad gpu");

        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setError(SlurmError.newBuilder().setCode(ErrorCode.INVALID_NODE_NAME.number()))
                        .build());
        assertThat(run(new ScontrolCommand(), "update", "nodename=n9", "state=drain", "reason=x"))
                .isEqualTo(err(1, "slurm_update error: Invalid node name specified\n"));
    }

    @Test
    void scontrolHostListsNeedNoController() throws IOException {
        cli.controller().close();
        assertThat(run(new ScontrolCommand(), "show", "hostnames", "n[1-3],x"))
                .isEqualTo(new Output(0, "n1\nn2\nn3\nx\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "hostlist", "n1,n2,n3,m5"))
                .isEqualTo(new Output(0, "n[1-3],m5\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "hostlistsorted", "n3,n1,n2"))
                .isEqualTo(new Output(0, "n[1-3]\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "hostnames"))
                .isEqualTo(err(0, "scontrol: error: host list is empty\n"));
    }

    @Test
    void scontrolEntityWordsAbbreviateAndOptionsMayFollowThem() throws IOException {
        cli.controller().close();
        assertThat(run(new ScontrolCommand(), "show", "hostn", "n[1-2]")).isEqualTo(new Output(0, "n1\nn2\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "hostl", "n2,n1")).isEqualTo(new Output(0, "n[2,1]\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "hostlists", "n2,n1")).isEqualTo(new Output(0, "n[1-2]\n", ""));
        assertThat(run(new ScontrolCommand(), "show", "host", "n1"))
                .isEqualTo(err(1, "invalid entity:host for keyword:show \n"));
        assertThat(run(new ScontrolCommand(), "show", "p", "gpu"))
                .isEqualTo(err(1, "invalid entity:p for keyword:show \n"));
        assertThat(run(new ScontrolCommand(), "show", "hostnames", "n1", "-o")).isEqualTo(new Output(0, "n1\n", ""));
    }

    @Test
    void scancelArgumentErrors() {
        assertThat(run(new ScancelCommand())).isEqualTo(err(1, "scancel: error: No job identification provided\n"));
        assertThat(run(new ScancelCommand(), "abc")).isEqualTo(err(1, "scancel: error: Invalid job id abc\n"));
        assertThat(run(new ScancelCommand(), "-s", "BOGUS", "1")).isEqualTo(err(1, "Unknown job signal: BOGUS\n"));
        assertThat(run(new ScancelCommand(), "-t", "BOGUS"))
                .isEqualTo(err(
                        1,
                        "Invalid job state specified: BOGUS\nValid job states are PENDING, RUNNING, and SUSPENDED\n"));
        assertThat(run(new ScancelCommand(), "-u", "nosuchuser"))
                .isEqualTo(err(1, "scancel: error: Invalid user name: nosuchuser\n"));
        assertThat(run(new ScancelCommand(), "--foo"))
                .isEqualTo(
                        err(1, "scancel: unrecognized option '--foo'\nTry \"scancel --help\" for more information\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    private void answerSignal(ErrorCode... codes) {
        cli.controller().handler(req -> {
            SignalJobResponse.Builder r = SignalJobResponse.newBuilder();
            for (int i = 0; i < req.getSignalJob().getJobIdsCount(); i++) {
                SignalJobResponse.Result.Builder one = SignalJobResponse.Result.newBuilder()
                        .setJobId(req.getSignalJob().getJobIds(i));
                if (codes[i] != ErrorCode.SUCCESS) {
                    one.setError(
                            SlurmError.newBuilder().setCode(codes[i].number()).setMessage(codes[i].text()));
                }
                r.addResults(one);
            }
            return ClientResponse.newBuilder().setSignalJob(r).build();
        });
    }

    @Test
    void scancelMessagesAndExitStatuses() {
        // Unknown and finished jobs: silent, exit 0; with -v the error is shown, still exit 0.
        answerSignal(ErrorCode.INVALID_JOB_ID);
        assertThat(run(new ScancelCommand(), "99")).isEqualTo(err(0, ""));
        assertThat(run(new ScancelCommand(), "-v", "99"))
                .isEqualTo(err(
                        0,
                        "scancel: Terminating job 99\n"
                                + "scancel: error: Kill job error on job id 99: Invalid job id specified\n"));
        answerSignal(ErrorCode.ALREADY_DONE);
        assertThat(run(new ScancelCommand(), "4")).isEqualTo(err(0, ""));
        // Other refusals: always shown, exit status Slurm's errno modulo 256 (2002 -> 210).
        answerSignal(ErrorCode.ACCESS_DENIED);
        assertThat(run(new ScancelCommand(), "2"))
                .isEqualTo(err(210, "scancel: error: Kill job error on job id 2: Access/permission denied\n"));
        // With a signal, unknown jobs are reported and exit 1.
        answerSignal(ErrorCode.INVALID_JOB_ID);
        assertThat(run(new ScancelCommand(), "-s", "sigterm", "99"))
                .isEqualTo(err(1, "scancel: error: Kill job error on job id 99: Invalid job id specified\n"));
        answerSignal(ErrorCode.SUCCESS);
        assertThat(run(new ScancelCommand(), "-b", "-s", "USR1", "-v", "1"))
                .isEqualTo(err(0, "scancel: Signal 10 to batch job 1\n"));
        var last = cli.controller()
                .requests()
                .get(cli.controller().requests().size() - 1)
                .getSignalJob();
        assertThat(last.getSignal()).isEqualTo(10);
        assertThat(last.getBatchOnly()).isTrue();
        assertThat(last.getCancel()).isFalse();
    }

    @Test
    void scancelFilters() {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setSignalJob(SignalJobResponse.getDefaultInstance())
                        .build());
        assertThat(run(new ScancelCommand(), "-n", "nomatch")).isEqualTo(err(0, ""));
        assertThat(run(new ScancelCommand(), "-v", "-t", "pd", "-u", "root"))
                .isEqualTo(
                        err(
                                0,
                                "scancel: error: No active jobs match ALL job filters, including: state=PENDING user_name=root \n"));
        var req = cli.controller().requests().get(1).getSignalJob();
        assertThat(req.getCancel()).isTrue();
        assertThat(req.getStateFilter()).isEqualTo("PENDING");
        assertThat(req.getUserFilter()).isEqualTo("root");
        assertThat(req.getJobIdsList()).isEmpty();
    }
}
