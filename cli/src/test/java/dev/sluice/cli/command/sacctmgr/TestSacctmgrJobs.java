package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.SlurmError;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sacctmgr modify job: its words and texts as real 22.05 has them (compat 293, 294), against a fake sluice-dbd. */
class TestSacctmgrJobs {
    @TempDir
    Path dir;

    private static final ModifyResult TWO = ModifyResult.newBuilder()
            .addJobs(ModifiedJob.newBuilder().setJobId(5000000).setSubmitTime(1_700_000_000))
            .addJobs(ModifiedJob.newBuilder().setJobId(5000001).setSubmitTime(1_700_000_060))
            .build();

    private static String parseErrors(String... words) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SacctmgrJobs.parse(List.of(words), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theWordsAndTheirShortestPrefixesMakeTheRequest() throws Exception {
        SacctmgrJobs.Parsed p = SacctmgrJobs.parse(
                List.of(
                        "where",
                        "j=7,8",
                        "c=other",
                        "set",
                        "derivedexitc=1:2",
                        "Comment=\"looks fine\"",
                        "adminComment=adm",
                        "systemcomment=sys",
                        "n=W1"),
                System.out,
                System.err);
        ModifyJobsRequest r = p.request.build();
        assertThat(r.getJobIdsList()).containsExactly(7, 8);
        assertThat(p.clusters).containsExactly("other");
        // strtol's reading: 1:2 is 1.
        assertThat(r.getDerivedExitStatus()).isEqualTo(1);
        assertThat(r.getComment()).isEqualTo("looks fine");
        assertThat(r.getAdminComment()).isEqualTo("adm");
        assertThat(r.getSystemComment()).isEqualTo("sys");
        assertThat(r.getWckey()).isEqualTo("w1");
        assertThat(p.changes && p.conditions && !p.failed).isTrue();
        // Without "where" the first words are conditions too; derivedes is the comment's old name.
        SacctmgrJobs.Parsed bare = SacctmgrJobs.parse(List.of("jobid=9", "set", "derivedes=x"), System.out, System.err);
        assertThat(bare.request.getJobIdsList()).containsExactly(9);
        assertThat(bare.request.getComment()).isEqualTo("x");
        assertThat(bare.request.hasDerivedExitStatus()).isFalse();
    }

    @Test
    void numbersAreReadAsSacctmgrReadsThem() {
        assertThat(SacctmgrJobs.unsigned("256")).isEqualTo(256L);
        assertThat(SacctmgrJobs.unsigned("1:2")).isEqualTo(1L);
        assertThat(SacctmgrJobs.unsigned("abc")).isNull();
        assertThat(SacctmgrJobs.unsigned("-1")).isEqualTo(SlurmLimits.INFINITE);
        assertThat(SacctmgrJobs.unquoted("'it's'")).isEqualTo("it");
    }

    @Test
    void badWordsAreRefusedInSacctmgrsWords() throws Exception {
        assertThat(parseErrors("where", "bogus=1", "set", "comment=x"))
                .isEqualTo(" Unknown condition: bogus=1\n Use keyword 'set' to modify value\n");
        assertThat(parseErrors("where", "jobid=1", "set", "comment"))
                .isEqualTo(" Bad format on comment: End your option with an '=' sign\n");
        assertThat(parseErrors("where", "jobid=1", "set", "derivedexitcode=abc"))
                .isEqualTo("sacctmgr: error: Invalid value for DerivedExitCode (abc)\n");
    }

    @Test
    void modifiedJobsAreListedAndCommittedWithMinusI() throws Exception {
        try (SacctmgrAgainstFakeDbd fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setModified(TWO))) {
            Output o = fake.run("-i", "modify", "job", "where", "jobid=5000000,5000001", "set", "comment=x");
            assertThat(o)
                    .isEqualTo(new Output(
                            0,
                            " Modified jobs...\n  5000000 submitted at 2023-11-14T22:13:20\n"
                                    + "  5000001 submitted at 2023-11-14T22:14:20\n",
                            ""));
            List<DbdRequest> sent = fake.dbd.requests();
            assertThat(sent).hasSize(2);
            assertThat(sent.get(0).getModifyJobs().getCommit()).isFalse();
            assertThat(sent.get(1).getModifyJobs().getCommit()).isTrue();
            assertThat(sent.get(1).getModifyJobs().getCluster()).isEqualTo("anchor");
            assertThat(sent.get(1).getModifyJobs().getComment()).isEqualTo("x");
        }
    }

    @Test
    void withoutMinusITheAnswerDecides() throws Exception {
        try (SacctmgrAgainstFakeDbd fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setModified(TWO))) {
            String asked = "Would you like to commit changes? (You have 30 seconds to decide)\n(N/y): \n";
            Output no = fake.typing("n\n", "modify", "job", "jobid=5000000", "set", "comment=no");
            assertThat(no.out()).endsWith(asked + " Changes Discarded\n");
            assertThat(fake.dbd.requests()).hasSize(1);
            Output yes = fake.typing("y\n", "modify", "job", "jobid=5000000", "set", "comment=yes");
            assertThat(yes.out()).endsWith(asked);
            assertThat(fake.dbd.requests()).hasSize(3);
            assertThat(fake.dbd.requests().get(2).getModifyJobs().getCommit()).isTrue();
        }
    }

    @Test
    void nothingModifiedSaysTheDaemonsReason() throws Exception {
        String why = "Request didn't affect anything or your user doesn't have privilege to perform this action";
        try (SacctmgrAgainstFakeDbd fake = SacctmgrAgainstFakeDbd.answering(
                dir, r -> r.setModified(ModifyResult.newBuilder().setNote(why)))) {
            assertThat(fake.run("-i", "modify", "job", "where", "jobid=4999999", "set", "comment=x"))
                    .isEqualTo(new Output(
                            1,
                            " Nothing modified\n",
                            "sacctmgr: accounting_storage/slurmdbd: acct_storage_p_modify_job: " + why + "\n"));
        }
    }

    @Test
    void aRefusedChangeIsAccessDenied() throws Exception {
        SlurmError denied = SlurmError.newBuilder()
                .setCode(ErrorCode.ACCESS_DENIED.number())
                .setMessage(ErrorCode.ACCESS_DENIED.text())
                .build();
        try (SacctmgrAgainstFakeDbd fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setError(denied))) {
            assertThat(fake.run("-i", "modify", "job", "where", "jobid=5", "set", "admincomment=x"))
                    .isEqualTo(new Output(
                            1,
                            "",
                            "sacctmgr: error: Your user doesn't have privilege to perform this action\n"
                                    + " Error with request: Access/permission denied\n"));
        }
    }

    @Test
    void refusalsBeforeAnyRequest() throws Exception {
        try (SacctmgrAgainstFakeDbd fake = SacctmgrAgainstFakeDbd.answering(dir, r -> r.setModified(TWO))) {
            assertThat(fake.run("-i", "modify", "job", "where", "jobid=abc", "set", "comment=x"))
                    .isEqualTo(new Output(1, "", "sacctmgr: fatal: Bad job/step specified: abc\n"));
            assertThat(fake.run("-i", "modify", "job", "where", "jobid=5"))
                    .isEqualTo(new Output(1, "", " You didn't give me anything to set\n"));
            assertThat(fake.run("-i", "modify", "job", "where", "jobid=5", "set", "bogus=1"))
                    .isEqualTo(new Output(
                            1,
                            " Unknown option: bogus=1\n Use keyword 'where' to modify condition\n",
                            " You didn't give me anything to set\n"));
            assertThat(fake.run("-i", "modify", "job", "where", "users=alice", "set", "comment=x"))
                    .isEqualTo(new Output(
                            1, "", "sacctmgr: error: Sluice picks the jobs to modify by JobID= only, not by users=\n"));
            assertThat(fake.dbd.requests()).isEmpty();
            // "jobs" is not sacctmgr's word for the entity.
            assertThat(fake.run("-i", "modify", "jobs", "where", "jobid=5", "set", "comment=x")
                            .err())
                    .startsWith("No valid entity in modify command\n");
        }
    }
}
