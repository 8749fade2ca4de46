package dev.sluice.common.conf.show;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.UserDb;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.CgroupConfReader;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link ShowConfig} prints for settings slurm.conf sets. Every expected value here was
 * printed by real Slurm 22.05.8's {@code scontrol show config} for a slurmctld started on the
 * same lines (the whole recorded output of one configuration is compared in the cli's
 * TestShowConfigAgainstSlurm).
 */
class TestShowConfig {

    private static final UserDb USERS = UserDb.of(
            Map.of("root", new UserDb.Account("root", 0, 0), "nobody", new UserDb.Account("nobody", 65534, 65534)));

    static SlurmConf conf(String... lines) throws ConfigException {
        String text = String.join(
                "\n",
                "ClusterName=probe",
                "SlurmctldHost=vm(127.0.0.1)",
                String.join("\n", lines),
                "NodeName=p[1-2] CPUs=1 State=UNKNOWN",
                "PartitionName=p Nodes=p[1-2] Default=YES",
                "");
        return SlurmConfReader.parse(text, "/etc/slurm/slurm.conf", IncludeResolver.none());
    }

    static ShowConfig show(String... lines) throws ConfigException {
        return ShowConfig.of(conf(lines), CgroupConf.defaults(), USERS);
    }

    @Test
    void aSetKeyChangesItsLine() throws ConfigException {
        assertThat(show().value("MinJobAge")).hasValue("300 sec");
        ShowConfig s = show("MinJobAge=10", "SchedulerTimeSlice=60", "AcctGatherNodeFreq=30", "OverTimeLimit=5");
        assertThat(s.value("MinJobAge")).hasValue("10 sec");
        assertThat(s.value("SchedulerTimeSlice")).hasValue("60 sec");
        assertThat(s.value("AcctGatherNodeFreq")).hasValue("30 sec");
        assertThat(s.value("OverTimeLimit")).hasValue("5 min");
        assertThat(show("OverTimeLimit=UNLIMITED").value("OverTimeLimit")).hasValue("UNLIMITED");
        assertThat(show("SuspendTime=600").value("SuspendTime")).hasValue("600 sec");
        assertThat(show().value("SuspendTime")).hasValue("INFINITE");
        assertThat(show("SuspendTime=NONE").value("SuspendTime")).hasValue("INFINITE");
    }

    @Test
    void aValueTheRunningControllerKnowsReplacesTheFilesOneInItsPlace() throws ConfigException {
        ShowConfig files = show("SlurmctldPort=6817-6820");
        assertThat(files.value("SlurmctldPort")).hasValue("6817-6820");
        ShowConfig bound = files.with("SlurmctldPort", "40001");
        assertThat(bound.value("SlurmctldPort")).hasValue("40001");
        assertThat(bound.settings().stream().map(ShowConfig.Setting::name))
                .containsExactlyElementsOf(
                        files.settings().stream().map(ShowConfig.Setting::name).toList());
        assertThat(files.with("NoSuchSetting", "1")).isEqualTo(files);
    }

    @Test
    void everySettingPrintsInSlurmsOrderWithItsDefault() throws ConfigException {
        ShowConfig s = show();
        // The first settings and the last, as Slurm prints them for this configuration.
        assertThat(s.settings().subList(0, 3))
                .containsExactly(
                        new ShowConfig.Setting("AccountingStorageBackupHost", "(null)"),
                        new ShowConfig.Setting("AccountingStorageEnforce", "none"),
                        new ShowConfig.Setting("AccountingStorageHost", "localhost"));
        assertThat(s.settings().getLast()).isEqualTo(new ShowConfig.Setting("X11Parameters", "(null)"));
        assertThat(s.settings()).hasSize(192);
        assertThat(s.value("PowerPlugin")).hasValue("");
        assertThat(s.value("ClusterName")).hasValue("probe");
        assertThat(s.value("SlurmctldHost[0]")).hasValue("vm(127.0.0.1)");
        assertThat(s.value("SLURM_CONF")).hasValue("/etc/slurm/slurm.conf");
        assertThat(s.value("MaxNodeCount")).hasValue("2");
        assertThat(s.value("SlurmUser")).hasValue("root(0)");
        assertThat(s.value("SelectType")).hasValue("select/linear");
        // select/linear has no SelectTypeParameters line unless it is set.
        assertThat(s.value("SelectTypeParameters")).isEmpty();
        assertThat(s.value("PriorityType")).hasValue("priority/basic");
        assertThat(s.value("PriorityMaxAge")).isEmpty();
    }

    @Test
    void namesAndLevelsPrintAsSlurmSpellsThem() throws ConfigException {
        ShowConfig s = show(
                "ClusterName=ProbeMixed",
                "SlurmctldHost=vm2(127.0.0.2)",
                "SlurmdUser=nobody",
                "SlurmdDebug=3",
                "SlurmctldDebug=DEBUG",
                "SlurmctldSyslogDebug=7",
                "UsePam=true",
                "EnforcePartLimits=YES",
                "PreemptExemptTime=90",
                "LogTimeFormat=iso8601_ms,format_stderr");
        assertThat(s.value("ClusterName")).hasValue("probemixed");
        assertThat(s.value("SlurmctldHost[1]")).hasValue("vm2(127.0.0.2)");
        assertThat(s.value("SlurmdUser")).hasValue("nobody(65534)");
        assertThat(s.value("SlurmdDebug")).hasValue("info");
        assertThat(s.value("SlurmctldDebug")).hasValue("debug");
        assertThat(s.value("SlurmctldSyslogDebug")).hasValue("debug3");
        assertThat(s.value("UsePam")).hasValue("Yes");
        assertThat(s.value("EnforcePartLimits")).hasValue("ANY");
        assertThat(s.value("PreemptExemptTime")).hasValue("01:30:00");
        assertThat(s.value("LogTimeFormat")).hasValue("iso8601_ms");
    }

    @Test
    void wordListsPrintInSlurmsOrderAndSpelling() throws ConfigException {
        ShowConfig s = show(
                "AccountingStorageEnforce=wckeys,qos,safe",
                "DebugFlags=Gres,backfill,CPU_Bind",
                "PreemptType=preempt/partition_prio",
                "PreemptMode=suspend,gang",
                "PrivateData=nodes,jobs",
                "TaskPluginParam=Sockets,verbose",
                "HealthCheckNodeState=MIXED,ALLOC,CYCLE",
                "PrologFlags=Serial,Contain",
                "ReconfigFlags=KeepPartInfo,KeepPartState");
        assertThat(s.value("AccountingStorageEnforce")).hasValue("associations,limits,qos,safe,wckeys");
        // Enforcing wckeys tracks them.
        assertThat(s.value("TrackWCKey")).hasValue("Yes");
        assertThat(s.value("DebugFlags")).hasValue("Backfill,CPU_Bind,Gres");
        assertThat(s.value("PreemptMode")).hasValue("GANG,SUSPEND");
        assertThat(s.value("PrivateData")).hasValue("jobs,nodes");
        assertThat(s.value("TaskPluginParam")).hasValue("verbose,sockets");
        assertThat(s.value("HealthCheckNodeState")).hasValue("CYCLE,ALLOC,MIXED");
        assertThat(s.value("PrologFlags")).hasValue("Alloc,Contain,Serial");
        assertThat(s.value("ReconfigFlags")).hasValue("KeepPartState");
        assertThat(show("HealthCheckNodeState=CYCLE").value("HealthCheckNodeState"))
                .hasValue("CYCLE,ANY");
        assertThat(show("AccountingStorageEnforce=nojobs").value("AccountingStorageEnforce"))
                .hasValue("nojobs,nosteps");
        assertThat(show("PrivateData=all").value("PrivateData"))
                .hasValue("accounts,cloud,events,jobs,nodes,partitions,reservations,usage,users");
        assertThat(show("TaskPluginParam=SlurmdOffSpec").value("TaskPluginParam"))
                .hasValue("(null type)");
        assertThat(show("ReconfigFlags=KeepPowerSaveSettings").value("ReconfigFlags"))
                .as("a word Slurm 22.05 does not know is dropped")
                .hasValue("(null)");
    }

    @Test
    void memoryPerCpuTakesThePerNodeLine() throws ConfigException {
        ShowConfig s = show("DefMemPerCPU=1000", "MaxMemPerNode=8000");
        assertThat(s.value("DefMemPerCPU")).hasValue("1000");
        assertThat(s.value("DefMemPerNode")).isEmpty();
        assertThat(s.value("MaxMemPerNode")).hasValue("8000");
        assertThat(show().value("DefMemPerNode")).hasValue("UNLIMITED");
    }

    @Test
    void selectTypeParametersFollowTheSelectPlugin() throws ConfigException {
        assertThat(show("SelectType=select/cons_tres").value("SelectTypeParameters"))
                .hasValue("CR_CORE_MEMORY");
        assertThat(show(
                                "SelectType=select/cons_tres",
                                "SelectTypeParameters=CR_LLN,CR_Core_Default_Dist_Block,CR_ONE_TASK_PER_CORE,CR_Core")
                        .value("SelectTypeParameters"))
                .hasValue("CR_CORE,CR_ONE_TASK_PER_CORE,CR_CORE_DEFAULT_DIST_BLOCK,CR_LLN");
        assertThat(show("SelectType=select/linear", "SelectTypeParameters=CR_Memory")
                        .value("SelectTypeParameters"))
                .hasValue("CR_MEMORY");
    }

    @Test
    void accountingDefaultsFollowTheStorageType() throws ConfigException {
        ShowConfig none = show();
        assertThat(none.value("AccountingStoragePort")).hasValue("0");
        assertThat(none.value("AccountingStorageUser")).hasValue("root");
        assertThat(none.value("MaxDBDMsgs")).hasValue("0");
        ShowConfig dbd = show(
                "AccountingStorageType=accounting_storage/slurmdbd",
                "AccountingStorageHost=127.0.0.1",
                "AccountingStorageTRES=gres/gpu,cpu,gres/mps");
        assertThat(dbd.value("AccountingStoragePort")).hasValue("6819");
        assertThat(dbd.value("AccountingStorageUser")).hasValue("N/A");
        // 10000 jobs * 2 + 2 nodes * 4
        assertThat(dbd.value("MaxDBDMsgs")).hasValue("20008");
        assertThat(dbd.value("AccountingStorageTRES"))
                .hasValue("cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu,gres/mps");
    }

    @Test
    void multifactorAddsItsLines() throws ConfigException {
        ShowConfig s = show(
                "PriorityType=priority/multifactor",
                "PriorityDecayHalfLife=1-0",
                "PriorityCalcPeriod=10",
                "PriorityFavorSmall=YES",
                "PriorityFlags=SMALL_RELATIVE_TO_TIME,ACCRUE_ALWAYS,NO_NORMAL_PART",
                "PriorityUsageResetPeriod=monthly",
                "PriorityWeightFairshare=2000",
                "FairShareDampeningFactor=5");
        List<String> names = s.settings().stream().map(ShowConfig.Setting::name).toList();
        assertThat(names)
                .containsSubsequence(
                        "ExtSensorsFreq",
                        "FairShareDampeningFactor",
                        "FederationParameters",
                        "PrioritySiteFactorPlugin",
                        "PriorityDecayHalfLife",
                        "PriorityCalcPeriod",
                        "PriorityFavorSmall",
                        "PriorityFlags",
                        "PriorityMaxAge",
                        "PriorityUsageResetPeriod",
                        "PriorityType",
                        "PriorityWeightAge",
                        "PriorityWeightTRES",
                        "PrivateData");
        assertThat(s.value("PriorityDecayHalfLife")).hasValue("1-00:00:00");
        assertThat(s.value("PriorityCalcPeriod")).hasValue("00:10:00");
        assertThat(s.value("PriorityFavorSmall")).hasValue("Yes");
        assertThat(s.value("PriorityFlags")).hasValue("ACCRUE_ALWAYS,SMALL_RELATIVE_TO_TIME,NO_NORMAL_ALL");
        assertThat(s.value("PriorityMaxAge")).hasValue("7-00:00:00");
        assertThat(s.value("PriorityUsageResetPeriod")).hasValue("MONTHLY");
        assertThat(s.value("PriorityWeightFairShare")).hasValue("2000");
        assertThat(s.value("FairShareDampeningFactor")).hasValue("5");
        assertThat(show("PriorityType=priority/multifactor").value("PriorityFlags"))
                .hasValue("");
    }

    @Test
    void cgroupSectionOnlyWithACgroupPlugin() throws ConfigException {
        String proctrack = "ProctrackType=proctrack/linuxproc";
        assertThat(show(proctrack).sections()).isEmpty();
        assertThat(show(proctrack, "JobAcctGatherType=jobacct_gather/cgroup").sections())
                .hasSize(1);
        assertThat(show(proctrack, "TaskPlugin=task/affinity,task/cgroup").sections())
                .hasSize(1);
        // proctrack/cgroup is Slurm's default
        ShowConfig.Section defaults = show().sections().getFirst();
        assertThat(defaults.title()).isEqualTo("Cgroup Support Configuration:");
        assertThat(defaults.settings().getFirst()).isEqualTo(new ShowConfig.Setting("AllowedKmemSpace", "(null)"));
        assertThat(defaults.settings()).contains(new ShowConfig.Setting("CgroupPlugin", "(null)"));
        CgroupConf cgroup = CgroupConfReader.parse(
                "CgroupPlugin=autodetect\nConstrainCores=yes\nAllowedRAMSpace=95\nMinRAMSpace=64\n"
                        + "MaxSwapPercent=50\nMemorySwappiness=10\nIgnoreSystemd=yes\nAllowedKmemSpace=1000\n",
                "cgroup.conf");
        ShowConfig.Section set = ShowConfig.of(conf(), cgroup, USERS).sections().getFirst();
        assertThat(set.settings())
                .contains(
                        new ShowConfig.Setting("AllowedKmemSpace", "1000 Bytes"),
                        new ShowConfig.Setting("AllowedRAMSpace", "95.0%"),
                        new ShowConfig.Setting("CgroupPlugin", "autodetect"),
                        new ShowConfig.Setting("ConstrainCores", "yes"),
                        new ShowConfig.Setting("IgnoreSystemdOnFailure", "yes"),
                        new ShowConfig.Setting("MaxSwapPercent", "50.0%"),
                        new ShowConfig.Setting("MemorySwappiness", "10"),
                        new ShowConfig.Setting("MinRAMSpace", "64 MB"));
    }

    @Test
    void hashTellsWhetherTwoReadingsAgree() throws ConfigException {
        String a = ShowConfig.hash(conf("MinJobAge=10"));
        assertThat(a).matches("0x[0-9a-f]{8}");
        assertThat(ShowConfig.hash(conf("MinJobAge=10"))).isEqualTo(a);
        assertThat(ShowConfig.hash(conf("minjobage=10"))).isEqualTo(a);
        assertThat(ShowConfig.hash(conf("MinJobAge=11"))).isNotEqualTo(a);
        assertThat(show("MinJobAge=10").value("HASH_VAL")).hasValue(a);
        assertThat(ShowConfig.compareHash(a, a)).isEqualTo("Match");
        assertThat(ShowConfig.compareHash("0x8d357b95", "0x8976c7b6"))
                .isEqualTo("Different Ours=0x8d357b95 Slurmctld=0x8976c7b6");
    }

    @Test
    void hashIgnoresWhereNodesAndPartitionsWereWritten() throws ConfigException {
        String a = ShowConfig.hash(conf("MinJobAge=10"));
        // The same lines one further down: only their line numbers differ.
        assertThat(ShowConfig.hash(conf("MinJobAge=10", "# moved"))).isEqualTo(a);
        String text = "ClusterName=probe\nSlurmctldHost=vm(127.0.0.1)\nMinJobAge=10\n"
                + "NodeName=p[1-2] CPUs=1 State=UNKNOWN\nPartitionName=p Nodes=p[1-2] Default=YES MaxTime=5\n";
        SlurmConf limited = SlurmConfReader.parse(text, "/etc/slurm/slurm.conf", IncludeResolver.none());
        assertThat(ShowConfig.hash(limited)).isNotEqualTo(a);
    }

    @Test
    void onlySlurmsSettingsPrint() throws ConfigException {
        // DefCpuPerGPU is a slurm.conf key Slurm 22.05 does not report.
        ShowConfig s = show("DefCpuPerGPU=2");
        assertThat(s.settings()).noneMatch(x -> x.name().equalsIgnoreCase("DefCpuPerGPU"));
        assertThat(s.settings().stream().map(ShowConfig.Setting::name)).doesNotHaveDuplicates();
    }
}
