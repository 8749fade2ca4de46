package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dbd.e2e.UserCommands.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * sacctmgr's QOS and modify commands against a real dbd. The expected texts follow Slurm
 * 22.05's sacctmgr sources (qos_functions.c: "Adding QOS(s)", the "Settings" block with
 * "  %-25s= ", "Modified qos..."; user_functions.c: "Modified users...", "Modified user
 * associations...", "Nothing modified") and the QOS example in Slurm's qos.html
 * ({@code sacctmgr show qos format=name,priority}); they were not captured from a live
 * slurmdbd, which this machine does not run.
 */
class SacctmgrQosEndToEndTest extends AgainstRealDbd {
    @BeforeEach
    void addChemAndBob() {
        sacctmgr("", "-i", "add", "cluster", "anchor");
        sacctmgr("", "-i", "add", "account", "chem");
        sacctmgr("", "-i", "add", "user", "bob", "account=chem");
    }

    @Test
    void qosAreAddedModifiedListedAndDeleted() {
        assertThat(sacctmgr("", "show", "qos", "format=name,priority"))
                .isEqualTo(new Run(0, "      Name   Priority \n---------- ---------- \n    normal          0 \n", ""));
        assertThat(sacctmgr("", "-i", "add", "qos", "zebra", "Priority=10", "MaxWall=1:00:00"))
                .isEqualTo(new Run(
                        0,
                        " Adding QOS(s)\n  zebra\n Settings\n  Description    = zebra\n"
                                + "  MaxWall                  = 01:00:00\n"
                                + "  Priority                 = 10\n",
                        ""));
        assertThat(sacctmgr("", "-i", "add", "qos", "zebra")).isEqualTo(new Run(1, " Nothing new added.\n", ""));
        assertThat(sacctmgr("", "-i", "modify", "qos", "zebra", "set", "GrpTRES=cpu=24", "MaxJobsPerUser=2"))
                .isEqualTo(new Run(0, " Modified qos...\n  zebra\n", ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "zebra", "format=name,priority,grptres,maxwall,maxjobspu"))
                .isEqualTo(new Run(0, "zebra|10|cpu=24|01:00:00|2\n", ""));
        assertThat(sacctmgr("", "-i", "modify", "qos", "where", "name=zebra", "set", "MaxWall=-1"))
                .isEqualTo(new Run(0, " Modified qos...\n  zebra\n", ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "zebra", "format=name,maxwall"))
                .isEqualTo(new Run(0, "zebra|\n", ""));
        assertThat(sacctmgr("", "-i", "modify", "qos", "nosuch", "set", "Priority=1"))
                .isEqualTo(new Run(1, " Nothing modified\n", ""));
        assertThat(sacctmgr("", "-i", "delete", "qos", "zebra"))
                .isEqualTo(new Run(0, " Deleting QOS(s)...\n  zebra\n", ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "format=name")).isEqualTo(new Run(0, "normal\n", ""));
    }

    /** What real Slurm 22.05 printed for the same commands (compat 195). */
    @Test
    void perAccountTresAndUsageThresholdChangeAsSlurmsDo() {
        assertThat(sacctmgr("", "-i", "add", "qos", "q1", "MaxTRESPerAccount=cpu=4,node=1", "UsageThreshold=0.3"))
                .isEqualTo(new Run(
                        0,
                        " Adding QOS(s)\n  q1\n Settings\n  Description    = q1\n"
                                + "  MaxTRESPerAccount        = cpu=4,node=1\n"
                                + "  UsageThreshold           = 0.3000\n",
                        ""));
        sacctmgr("", "-i", "modify", "qos", "q1", "set", "maxtrespa=cpu=2", "usagethreshold=0.5");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "q1", "format=name,maxtrespa,usagethres")
                        .out())
                .isEqualTo("q1|cpu=2,node=1|0.500000\n");
        assertThat(sacctmgr("", "-i", "modify", "qos", "q1", "set", "UsageThreshold=half"))
                .isEqualTo(
                        new Run(
                                1,
                                "",
                                "sacctmgr: error: Invalid value for UsageThreshold (half)\n You didn't give me anything to set\n"));
        assertThat(sacctmgr("", "-i", "modify", "qos", "q1", "set", "MaxTRESPerAccount=-1", "UsageThreshold=-1"))
                .isEqualTo(new Run(1, "", "sacctmgr: error: slurmdb_format_tres_str: no TRES id found for -1\n"));
        sacctmgr("", "-i", "modify", "qos", "q1", "set", "MaxTRESPA=cpu=many");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "q1", "format=name,maxtrespa,usagethres")
                        .out())
                .isEqualTo("q1|cpu=0,node=1|0.500000\n");
        sacctmgr("", "-i", "modify", "qos", "q1", "set", "MaxTRESPerAccount=cpu=-1", "UsageThreshold=-1");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "q1", "format=name,maxtrespa,usagethres")
                        .out())
                .isEqualTo("q1|node=1|\n");
        sacctmgr("", "-i", "modify", "qos", "q1", "set", "MaxTRESPA=node=-1");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "q1", "format=name,maxtrespa")
                        .out())
                .isEqualTo("q1|\n");
    }

    /** What real Slurm 22.05 printed for a TRES of a type it does not know (compat 197): nothing changes. */
    @Test
    void aTresOfAnUnknownTypeIsRefused() {
        sacctmgr("", "-i", "modify", "qos", "normal", "set", "MaxTRESPU=cpu=4");
        String refused = "sacctmgr: error: slurmdb_format_tres_str: no TRES known by type bogus\n";
        assertThat(sacctmgr("", "-i", "modify", "qos", "normal", "set", "MaxTRESPA=bogus=3"))
                .isEqualTo(new Run(1, "", refused));
        assertThat(sacctmgr("", "-i", "modify", "qos", "normal", "set", "MaxTRESPU=cpu=2,bogus=3"))
                .isEqualTo(new Run(1, "", refused));
        assertThat(sacctmgr("", "-i", "add", "qos", "q2", "GrpTRES=bogus/x=1").rc())
                .isEqualTo(1);
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "format=name,maxtrespa,maxtrespu")
                        .out())
                .isEqualTo("normal||cpu=4\n");
        sacctmgr("", "-i", "modify", "qos", "normal", "set", "MaxTRESPU=gres/gpu=1,cpu=-1");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos", "normal", "format=name,maxtrespu")
                        .out())
                .isEqualTo("normal|gres/gpu=1\n");
    }

    @Test
    void theDefaultQosListingHasSlurmsColumns() {
        String header = sacctmgr("", "show", "qos").out().lines().findFirst().orElseThrow();
        assertThat(header.strip().split(" +"))
                .startsWith("Name", "Priority", "GraceTime", "Preempt", "PreemptExemptTime", "PreemptMode", "Flags")
                .endsWith("MaxJobsPA", "MaxSubmitPA", "MinTRES");
        assertThat(sacctmgr("", "-P", "-n", "show", "qos").out())
                .isEqualTo("normal|0|00:00:00|||cluster|||1.000000" + "|".repeat(17) + "\n");
    }

    @Test
    void modifyUserSetsDefaultAccountAndLimitsAfterConfirmation() {
        sacctmgr("", "-i", "add", "account", "phys");
        sacctmgr("", "-i", "add", "user", "bob", "account=phys");
        assertThat(sacctmgr("n\n", "modify", "user", "where", "name=bob", "account=chem", "set", "MaxJobs=2"))
                .isEqualTo(new Run(
                        0,
                        " Modified user associations...\n"
                                + "  C = anchor     A = chem                 U = bob      \n"
                                + "Would you like to commit changes? (You have 30 seconds to decide)\n(N/y): \n"
                                + " Changes Discarded\n",
                        ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "assoc", "users=bob", "format=account,maxjobs")
                        .out())
                .isEqualTo("chem|\nphys|\n");
        assertThat(sacctmgr("", "-i", "modify", "user", "bob", "set", "DefaultAccount=phys", "MaxJobs=2"))
                .isEqualTo(new Run(
                        0,
                        " Modified users...\n  bob\n Modified user associations...\n"
                                + "  C = anchor     A = chem                 U = bob      \n"
                                + "  C = anchor     A = phys                 U = bob      \n",
                        ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "user", "bob", "format=user,defaultaccount")
                        .out())
                .isEqualTo("bob|phys\n");
        assertThat(sacctmgr("", "-P", "-n", "show", "assoc", "users=bob", "format=account,maxjobs")
                        .out())
                .isEqualTo("chem|2\nphys|2\n");
        assertThat(sacctmgr("", "-i", "modify", "user", "nobody", "set", "MaxJobs=2"))
                .isEqualTo(new Run(1, " Nothing modified\n", ""));
        assertThat(sacctmgr("", "-i", "modify", "user", "bob", "set", "DefaultAccount=nosuch")
                        .rc())
                .isEqualTo(1);
        assertThat(sacctmgr("", "-i", "modify", "association", "set", "MaxJobs=1")
                        .rc())
                .isEqualTo(1);
    }

    @Test
    void modifyAccountChangesItsDescriptionAndLimits() {
        assertThat(sacctmgr("", "-i", "modify", "account", "chem", "set", "Description=Chemistry", "GrpTRES=cpu=8"))
                .isEqualTo(new Run(
                        0,
                        " Modified accounts...\n  chem\n Modified account associations...\n"
                                + "  C = anchor     A = chem of root\n",
                        ""));
        assertThat(sacctmgr("", "-P", "-n", "show", "account", "chem", "format=account,descr")
                        .out())
                .isEqualTo("chem|chemistry\n");
    }
}
