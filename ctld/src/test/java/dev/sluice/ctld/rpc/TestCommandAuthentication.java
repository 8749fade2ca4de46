package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ALICE;
import static dev.sluice.ctld.rpc.SecuredController.BOB;
import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static dev.sluice.ctld.rpc.SecuredController.bare;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static dev.sluice.ctld.rpc.SecuredController.signed;
import static dev.sluice.ctld.rpc.SecuredController.submit;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.ReconfigureRequest;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's command socket over TCP believes only credentials: no credential, another
 * key, an expired or replayed credential, or one lifted onto another request all get Slurm's
 * "Protocol authentication error" and change nothing; the uid a request claims is never used.
 */
class TestCommandAuthentication {
    private static final int AUTH = ErrorCode.AUTHENTICATION_ERROR.number();

    @TempDir
    Path dir;

    private SecuredController ctld;

    @BeforeEach
    void start() throws Exception {
        ctld = new SecuredController(dir, "");
    }

    @AfterEach
    void stop() {
        ctld.close();
    }

    private int jobCount() throws Exception {
        return ctld.call(
                        request()
                                .setGetJobs(GetJobsRequest.getDefaultInstance())
                                .build(),
                        ROOT)
                .getGetJobs()
                .getJobsCount();
    }

    private static void assertRefused(ClientResponse r) {
        assertThat(r.getError().getCode()).isEqualTo(AUTH);
        assertThat(r.getError().getMessage()).isEqualTo("Protocol authentication error");
        assertThat(r.getBodyCase()).isEqualTo(ClientResponse.BodyCase.BODY_NOT_SET);
    }

    @Test
    void aRequestWithoutCredentialIsRefusedWhateverItClaims() throws Exception {
        ClientRequest claimingRoot = submit("forged").toBuilder()
                .setIdentity(Identity.newBuilder().setUid(0).setGid(0).setUserName("root"))
                .build();
        assertRefused(ctld.send(bare(claimingRoot)));
        assertThat(jobCount()).isZero();
    }

    @Test
    void aCredentialFromAnotherKeyIsRefused() throws Exception {
        ClusterKeys.generate(dir.resolve("stolen-elsewhere.key"));
        ClusterKeys other = ClusterKeys.load(dir.resolve("stolen-elsewhere.key"));
        assertRefused(ctld.send(signed(submit("x"), ROOT, other, Instant.now(), Duration.ofMinutes(5))));
        assertThat(jobCount()).isZero();
    }

    @Test
    void anExpiredCredentialIsRefused() throws Exception {
        SignedRequest old = signed(
                submit("late"), ALICE, ctld.keys, Instant.now().minus(Duration.ofMinutes(10)), Duration.ofMinutes(5));
        assertRefused(ctld.send(old));
        assertThat(jobCount()).isZero();
    }

    @Test
    void aReplayedCredentialIsRefused() throws Exception {
        SignedRequest once = ctld.signed(submit("once"), ALICE);
        assertThat(ctld.send(once).hasError()).isFalse();
        assertRefused(ctld.send(once));
        assertThat(jobCount()).isEqualTo(1);
    }

    @Test
    void aCredentialMovedOntoAnotherRequestIsRefused() throws Exception {
        SignedRequest mine = ctld.signed(
                request().setGetJobs(GetJobsRequest.getDefaultInstance()).build(), ALICE);
        SignedRequest altered = mine.toBuilder()
                .setRequest(ByteString.copyFrom(submit("not-what-was-signed").toByteArray()))
                .build();
        assertRefused(ctld.send(altered));
        assertThat(jobCount()).isZero();
    }

    @Test
    void theOwnerIsWhoSignedNotWhoTheRequestSays() throws Exception {
        ClientRequest lying = submit("mine").toBuilder()
                .setIdentity(Identity.newBuilder().setUid(0).setGid(0).setUserName("root"))
                .build();
        int id = ctld.call(lying, ALICE).getSubmitBatchJob().getJobId();
        JobInfo job = ctld.call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().addJobIds(id))
                                .build(),
                        ROOT)
                .getGetJobs()
                .getJobs(0);
        assertThat(job.getSpec().getOwner().getUid()).isEqualTo(1001);
        assertThat(job.getSpec().getOwner().getUserName()).isEqualTo("alice");
    }

    @Test
    void usersActOnlyOnTheirOwnJobs() throws Exception {
        int bobs = ctld.submitAs(BOB, "bobs");
        ClientResponse cancel = ctld.call(
                request()
                        .setSignalJob(SignalJobRequest.newBuilder()
                                .addJobIds(Integer.toString(bobs))
                                .setCancel(true))
                        .build(),
                ALICE);
        assertThat(cancel.getSignalJob().getResults(0).getError().getMessage()).isEqualTo("Access/permission denied");
        ClientResponse hold = ctld.call(
                request()
                        .setUpdateJob(UpdateJobRequest.newBuilder()
                                .addJobIds(Integer.toString(bobs))
                                .setAction(JobAction.JOB_ACTION_UHOLD))
                        .build(),
                ALICE);
        // Slurm 22.05 answers a hold of another user's job with ESLURM_USER_ID_MISSING.
        assertThat(hold.getUpdateJob().getResults(0).getError().getMessage()).isEqualTo("Invalid user id");
        JobInfo job = ctld.call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().addJobIds(bobs))
                                .build(),
                        BOB)
                .getGetJobs()
                .getJobs(0);
        assertThat(job.getState().name()).isEqualTo("PENDING");
        assertThat(job.getReason()).isNotEqualTo("JobHeldUser");

        ClientResponse own = ctld.call(
                request()
                        .setSignalJob(SignalJobRequest.newBuilder()
                                .addJobIds(Integer.toString(bobs))
                                .setCancel(true))
                        .build(),
                BOB);
        assertThat(own.getSignalJob().getResults(0).hasError()).isFalse();
    }

    @Test
    void nodeChangesAndReconfigureAreForOperatorsOnly() throws Exception {
        ClientResponse drain = ctld.call(
                request()
                        .setUpdateNode(UpdateNodeRequest.newBuilder()
                                .setNodeNames("n1")
                                .setState(dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_DRAIN)
                                .setReason("mine now"))
                        .build(),
                ALICE);
        assertThat(drain.getError().getMessage()).isEqualTo("Invalid user id");
        var node = ctld.call(
                        request()
                                .setGetNodes(GetNodesRequest.getDefaultInstance())
                                .build(),
                        ALICE)
                .getGetNodes()
                .getNodes(0);
        assertThat(node.getFlagsList()).doesNotContain("DRAIN");
        assertThat(node.getReason()).isEmpty();

        ClientResponse reconfigure = ctld.call(
                request()
                        .setReconfigure(ReconfigureRequest.getDefaultInstance())
                        .build(),
                ALICE);
        assertThat(reconfigure.getError().getMessage()).isEqualTo("Invalid user id");

        ClientResponse byRoot = ctld.call(
                request()
                        .setUpdateNode(UpdateNodeRequest.newBuilder()
                                .setNodeNames("n1")
                                .setState(dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_DRAIN)
                                .setReason("maintenance"))
                        .build(),
                ROOT);
        assertThat(byRoot.hasError()).as(byRoot.toString()).isFalse();
    }

    @Test
    void aCredentialForAnotherDaemonIsRefused() throws Exception {
        byte[] body = submit("x").toByteArray();
        SignedRequest forDbd = SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(ctld.keys)
                        .issue(ROOT, "slurmdbd", body, Instant.now(), Duration.ofMinutes(5)))
                .build();
        assertRefused(ctld.send(forDbd));
    }
}
