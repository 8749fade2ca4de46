package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The key table against slurm.conf(5): every documented key is accepted. */
class TestSlurmConfKeys {

    /**
     * Top-level keys documented in current slurm.conf(5) (SchedMD/slurm master,
     * doc/man/man5/slurm.conf.5), copied here as a list of names.
     */
    static final List<String> DOCUMENTED = List.of(
            "AccountingStorageBackupHost",
            "AccountingStorageEnforce",
            "AccountingStorageExternalHost",
            "AccountingStorageHost",
            "AccountingStorageParameters",
            "AccountingStoragePass",
            "AccountingStoragePort",
            "AccountingStorageTRES",
            "AccountingStorageType",
            "AccountingStoreFlags",
            "AcctGatherNodeFreq",
            "AcctGatherEnergyType",
            "AcctGatherInterconnectType",
            "AcctGatherFilesystemType",
            "AcctGatherProfileType",
            "AllowSpecResourcesUsage",
            "AuthAltTypes",
            "AuthAltParameters",
            "AuthInfo",
            "AuthType",
            "BatchStartTimeout",
            "BcastExclude",
            "BcastParameters",
            "BurstBufferType",
            "CertgenParameters",
            "CertgenType",
            "CertmgrParameters",
            "CertmgrType",
            "CliFilterParameters",
            "CliFilterPlugins",
            "ClusterName",
            "CommunicationParameters",
            "CompleteWait",
            "CpuFreqDef",
            "CpuFreqGovernors",
            "CredType",
            "DataParserParameters",
            "DebugFlags",
            "DefCpuPerGPU",
            "DefMemPerCPU",
            "DefMemPerGPU",
            "DefMemPerNode",
            "DefRuntimePlugin",
            "DependencyParameters",
            "DisableRootJobs",
            "EioTimeout",
            "EnforcePartLimits",
            "Epilog",
            "EpilogMsgTime",
            "EpilogSlurmctld",
            "EpilogTimeout",
            "FairShareDampeningFactor",
            "FederationParameters",
            "FirstJobId",
            "GresTypes",
            "GroupUpdateForce",
            "GroupUpdateTime",
            "GpuFreqDef",
            "HashPlugin",
            "HealthCheckInterval",
            "HealthCheckNodeState",
            "HealthCheckProgram",
            "HealthCheckTimeout",
            "HttpParserType",
            "InactiveLimit",
            "InteractiveStepOptions",
            "JobAcctGatherType",
            "JobAcctGatherFrequency",
            "JobAcctGatherParams",
            "JobCompHost",
            "JobCompLoc",
            "JobCompParams",
            "JobCompPass",
            "JobCompPassScript",
            "JobCompPort",
            "JobCompType",
            "JobCompUser",
            "JobFileAppend",
            "JobRequeue",
            "JobSubmitPlugins",
            "KillOnBadExit",
            "KillWait",
            "MaxBatchRequeue",
            "NodeFeaturesPlugins",
            "LaunchParameters",
            "LicenseParameters",
            "Licenses",
            "LogTimeFormat",
            "MailDomain",
            "MailProg",
            "MaxArraySize",
            "MaxDBDMsgs",
            "MaxJobCount",
            "MaxJobId",
            "MaxMemPerCPU",
            "MaxMemPerNode",
            "MaxNodeCount",
            "MaxStepCount",
            "MaxTasksPerNode",
            "MCSParameters",
            "MCSPlugin",
            "MessageTimeout",
            "MetricsAuthUsers",
            "MetricsParameters",
            "MetricsType",
            "MinJobAge",
            "MpiDefault",
            "MpiParams",
            "NamespaceType",
            "OverTimeLimit",
            "PluginDir",
            "PlugStackConfig",
            "PreemptMode",
            "PreemptParameters",
            "PreemptType",
            "PreemptExemptTime",
            "PrEpParameters",
            "PrEpPlugins",
            "PriorityCalcPeriod",
            "PriorityDecayHalfLife",
            "PriorityFavorSmall",
            "PriorityFlags",
            "PriorityMaxAge",
            "PriorityParameters",
            "PrioritySiteFactorParameters",
            "PrioritySiteFactorPlugin",
            "PriorityType",
            "PriorityUsageResetPeriod",
            "PriorityWeightAge",
            "PriorityWeightAssoc",
            "PriorityWeightFairshare",
            "PriorityWeightJobSize",
            "PriorityWeightPartition",
            "PriorityWeightQOS",
            "PriorityWeightTRES",
            "PrivateData",
            "ProctrackType",
            "Prolog",
            "PrologEpilogTimeout",
            "PrologTimeout",
            "PrologFlags",
            "PrologSlurmctld",
            "PropagatePrioProcess",
            "PropagateResourceLimits",
            "PropagateResourceLimitsExcept",
            "RebootProgram",
            "ReconfigFlags",
            "RequeueExit",
            "RequeueExitHold",
            "ResumeFailProgram",
            "ResumeProgram",
            "ResumeRate",
            "ResumeTimeout",
            "ResvEpilog",
            "ResvOverRun",
            "ResvProlog",
            "ReturnToService",
            "SchedulerParameters",
            "SchedulerTimeSlice",
            "SchedulerType",
            "ScronParameters",
            "SelectType",
            "SelectTypeParameters",
            "SerializerParameters",
            "SerializerPlugins",
            "SlurmctldAddr",
            "SlurmctldDebug",
            "SlurmctldHost",
            "SlurmctldHttpAuthParameters",
            "SlurmctldLogFile",
            "SlurmctldParameters",
            "SlurmctldPidFile",
            "SlurmctldPort",
            "SlurmctldPrimaryOffProg",
            "SlurmctldPrimaryOnProg",
            "SlurmctldSyslogDebug",
            "SlurmctldTimeout",
            "SlurmdDebug",
            "SlurmdHttpAuthParameters",
            "SlurmdLogFile",
            "SlurmdParameters",
            "SlurmdPidFile",
            "SlurmdPort",
            "SlurmdSpoolDir",
            "SlurmdSyslogDebug",
            "SlurmdTimeout",
            "SlurmdUser",
            "SlurmrestdParameters",
            "SlurmSchedLogFile",
            "SlurmSchedLogLevel",
            "SlurmstepdParameters",
            "SlurmUser",
            "SrunEpilog",
            "SrunPortRange",
            "SrunProlog",
            "StateSaveLocation",
            "SuspendExcNodes",
            "SuspendExcParts",
            "SuspendExcStates",
            "SuspendProgram",
            "SuspendRate",
            "SuspendTime",
            "SuspendTimeout",
            "SwitchParameters",
            "SwitchType",
            "TaskEpilog",
            "TaskPlugin",
            "TaskPluginParam",
            "TaskProlog",
            "TCPTimeout",
            "TLSParameters",
            "TLSType",
            "TmpFS",
            "TopologyParam",
            "TopologyPlugin",
            "TrackWCKey",
            "TreeWidth",
            "UnkillableStepProgram",
            "UnkillableStepTimeout",
            "UrlParserType",
            "UsePAM",
            "VSizeFactor",
            "WaitTime",
            "X11Parameters",
            "NodeName",
            "DownNodes",
            "NodeSet",
            "PartitionName");

    @Test
    void everyDocumentedKeyIsKnown() {
        for (String k : DOCUMENTED) {
            assertThat(SlurmConfKeys.lookup(k)).as(k).isPresent();
        }
    }

    /** Keys whose values Slurm checks against a list of words or as times (see ValueRules). */
    static final java.util.Map<String, String> VALID_WORDS = java.util.Map.ofEntries(
            java.util.Map.entry("AccountingStorageEnforce", "associations,limits,qos"),
            java.util.Map.entry("EnforcePartLimits", "ALL"),
            java.util.Map.entry("PreemptMode", "GANG"),
            java.util.Map.entry("PropagateResourceLimits", "ALL"),
            java.util.Map.entry("PropagateResourceLimitsExcept", "MEMLOCK"),
            java.util.Map.entry("SlurmctldDebug", "info"),
            java.util.Map.entry("SlurmdDebug", "debug2"),
            java.util.Map.entry("SlurmctldSyslogDebug", "quiet"),
            java.util.Map.entry("SlurmdSyslogDebug", "3"),
            java.util.Map.entry("TaskPluginParam", "Cores,Verbose"),
            java.util.Map.entry("PriorityUsageResetPeriod", "MONTHLY"),
            java.util.Map.entry("PriorityDecayHalfLife", "7-0"),
            java.util.Map.entry("PriorityCalcPeriod", "5"),
            java.util.Map.entry("PriorityMaxAge", "14-0"),
            java.util.Map.entry("PreemptExemptTime", "00:10:00"));

    @Test
    void everyKnownSimpleKeyIsAcceptedWithAValueOfItsType() throws Exception {
        StringBuilder text = new StringBuilder("ClusterName=c\nSlurmctldHost=h\n");
        for (SlurmConfKeys.Key k : SlurmConfKeys.table().values()) {
            if (SlurmConfKeys.subKeys(k.name()).isPresent() || k.name().equals("ClusterName")) {
                continue;
            }
            String v = VALID_WORDS.getOrDefault(k.name(), null);
            if (v == null) {
                v = switch (k.type()) {
                    case UINT16, UINT32, UINT64 -> "1";
                    case BOOLEAN -> "yes";
                    default -> k.name().equals("SlurmctldPort") ? "6817" : "x";
                };
            }
            text.append(k.name()).append('=').append(v).append('\n');
        }
        SlurmConf c = SlurmConfReader.parse(text.toString(), "slurm.conf", IncludeResolver.none());
        long unused = SlurmConfKeys.table().values().stream()
                .filter(k -> !k.used() && SlurmConfKeys.subKeys(k.name()).isEmpty())
                .count();
        assertThat(c.ignoredKeys()).hasSize((int) unused);
        assertThat(c.ignoredKeys()).allSatisfy(i -> assertThat(i.file()).isEqualTo("slurm.conf"));
    }

    @Test
    void suggestionsNeedToBeClose() {
        assertThat(SlurmConfKeys.suggest("NodeNmae", SlurmConfKeys.allKeys())).contains("NodeName");
        assertThat(SlurmConfKeys.suggest("slurmctldhots", SlurmConfKeys.allKeys()))
                .contains("SlurmctldHost");
        assertThat(SlurmConfKeys.suggest("Frobnicate", SlurmConfKeys.allKeys())).isEmpty();
    }
}
