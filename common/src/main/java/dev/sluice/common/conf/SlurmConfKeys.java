package dev.sluice.common.conf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every key {@code slurm.conf} may hold, with its value type and what Sluice does with it.
 *
 * <p>The table is the union of the keys Slurm 22.05 accepts and the keys current Slurm documents in
 * slurm.conf(5) (names and value types taken from those versions' documentation and parser tables).
 * Flags: {@code used} — Sluice acts on the key; otherwise the key is accepted and reported once as
 * ignored. {@code defunct} — current Slurm no longer acts on it either. Keys Slurm has removed are
 * errors, with Slurm's own explanation where it has one ({@link #removal}).
 *
 * <p>Line-type keys ({@code NodeName}, {@code PartitionName}, ...) take the rest of their line as
 * sub-options; their sub-keys are in {@link #subKeys}.
 */
final class SlurmConfKeys {

    /** How Slurm's parser checks a value before anything else looks at it. */
    enum Type {
        STRING,
        UINT16,
        UINT32,
        UINT64,
        BOOLEAN,
        /** A line-type key, or a key that may repeat ({@code Prolog} in current Slurm). */
        ARRAY
    }

    record Key(String name, Type type, boolean used, boolean defunct) {}

    private static final String TABLE = """
            AccountingStorageBackupHost STRING
            AccountingStorageEnforce STRING used
            AccountingStorageExternalHost STRING
            AccountingStorageHost STRING used
            AccountingStorageParameters STRING
            AccountingStoragePass STRING
            AccountingStoragePort UINT16 used
            AccountingStorageTRES STRING used
            AccountingStorageType STRING used
            AccountingStorageUser STRING defunct
            AccountingStoreFlags STRING
            AcctGatherEnergyType STRING
            AcctGatherFilesystemType STRING
            AcctGatherInfinibandType STRING
            AcctGatherInterconnectType STRING
            AcctGatherNodeFreq UINT16
            AcctGatherProfileType STRING
            AllowSpecResourcesUsage BOOLEAN
            AuthAltParameters STRING
            AuthAltTypes STRING used
            AuthInfo STRING
            AuthType STRING used
            BackupAddr STRING used
            BackupController STRING used
            BatchStartTimeout UINT16
            BcastExclude STRING
            BcastParameters STRING
            BurstBufferParameters STRING
            BurstBufferType STRING
            CertgenParameters STRING
            CertgenType STRING
            CertmgrParameters STRING
            CertmgrType STRING
            CliFilterParameters STRING
            CliFilterPlugins STRING
            ClusterName STRING used
            CommunicationParameters STRING
            CompleteWait UINT16 used
            ControlAddr STRING used
            ControlMachine STRING used
            CoreSpecPlugin STRING defunct
            CpuFreqDef STRING
            CpuFreqGovernors STRING
            CredType STRING
            CryptoType STRING
            DataParserParameters STRING
            DebugFlags STRING
            DefCPUPerGPU UINT64 used
            DefMemPerCPU UINT64 used
            DefMemPerGPU UINT64 used
            DefMemPerNode UINT64 used
            DefRuntimePlugin STRING
            DependencyParameters STRING
            DisableRootJobs BOOLEAN used
            DownNodes ARRAY used
            EioTimeout UINT16
            EnforcePartLimits STRING used
            Epilog ARRAY used
            EpilogMsgTime UINT32
            EpilogSlurmctld ARRAY
            EpilogTimeout UINT16
            ExtSensorsFreq UINT16 defunct
            ExtSensorsType STRING defunct
            FairShareDampeningFactor UINT16
            FederationParameters STRING
            FirstJobId UINT32 used
            FrontendName ARRAY defunct
            GetEnvTimeout UINT16 defunct
            GpuFreqDef STRING
            GresTypes STRING used
            GroupUpdateForce UINT16
            GroupUpdateTime UINT16
            HashPlugin STRING
            HealthCheckInterval UINT16
            HealthCheckNodeState STRING
            HealthCheckProgram STRING
            HealthCheckTimeout UINT16
            HttpParserType STRING
            InactiveLimit UINT16 used
            InteractiveStepOptions STRING
            JobAcctGatherFrequency STRING
            JobAcctGatherParams STRING
            JobAcctGatherType STRING
            JobCompHost STRING
            JobCompLoc STRING
            JobCompParams STRING
            JobCompPass STRING
            JobCompPassScript STRING
            JobCompPort UINT32
            JobCompType STRING
            JobCompUser STRING
            JobContainerType STRING
            JobCredentialPrivateKey STRING defunct
            JobCredentialPublicCertificate STRING defunct
            JobFileAppend UINT16
            JobRequeue UINT16 used
            JobSubmitPlugins STRING
            KeepAliveTime UINT32
            KillOnBadExit UINT16
            KillWait UINT16 used
            LaunchParameters STRING
            LaunchType STRING
            LicenseParameters STRING
            Licenses STRING
            LogTimeFormat STRING
            MCSParameters STRING
            MCSPlugin STRING
            MailDomain STRING
            MailProg STRING
            MaxArraySize UINT32 used
            MaxBatchRequeue UINT32
            MaxDBDMsgs UINT32
            MaxJobCount UINT32 used
            MaxJobId UINT32 used
            MaxMemPerCPU UINT64 used
            MaxMemPerNode UINT64 used
            MaxNodeCount UINT32
            MaxStepCount UINT32 used
            MaxTasksPerNode UINT16 used
            MessageTimeout UINT16 used
            MetricsAuthUsers STRING
            MetricsParameters STRING
            MetricsType STRING
            MinJobAge UINT32 used
            MpiDefault STRING
            MpiParams STRING
            NamespaceType STRING
            NodeFeaturesPlugins STRING
            NodeName ARRAY used
            NodeSet ARRAY used
            OverTimeLimit UINT16 used
            PartitionName ARRAY used
            PlugStackConfig STRING
            PluginDir STRING
            PowerAction ARRAY
            PowerParameters STRING defunct
            PowerPlugin STRING defunct
            PrEpParameters STRING
            PrEpPlugins STRING
            PreemptExemptTime STRING
            PreemptMode STRING
            PreemptParameters STRING
            PreemptType STRING
            PriorityCalcPeriod STRING
            PriorityDecayHalfLife STRING used
            PriorityFavorSmall BOOLEAN used
            PriorityFlags STRING
            PriorityMaxAge STRING used
            PriorityParameters STRING
            PrioritySiteFactorParameters STRING
            PrioritySiteFactorPlugin STRING
            PriorityType STRING used
            PriorityUsageResetPeriod STRING
            PriorityWeightAge UINT32 used
            PriorityWeightAssoc UINT32 used
            PriorityWeightFairshare UINT32 used
            PriorityWeightJobSize UINT32 used
            PriorityWeightPartition UINT32 used
            PriorityWeightQOS UINT32 used
            PriorityWeightTRES STRING used
            PrivateData STRING
            ProctrackType STRING used
            Prolog ARRAY used
            PrologEpilogTimeout UINT16
            PrologFlags STRING
            PrologSlurmctld ARRAY
            PrologTimeout UINT16
            PropagatePrioProcess UINT16
            PropagateResourceLimits STRING
            PropagateResourceLimitsExcept STRING
            RebootProgram STRING
            ReconfigFlags STRING
            RequeueExit STRING
            RequeueExitHold STRING
            ResumeFailProgram STRING
            ResumeProgram STRING
            ResumeRate UINT16
            ResumeTimeout UINT16
            ResvEpilog STRING
            ResvOverRun UINT16
            ResvProlog STRING
            ReturnToService UINT16 used
            RoutePlugin STRING
            SbcastParameters STRING
            SchedulerAuth STRING defunct
            SchedulerParameters STRING used
            SchedulerTimeSlice UINT16
            SchedulerType STRING used
            ScronParameters STRING
            SelectType STRING used
            SelectTypeParameters STRING used
            SerializerParameters STRING
            SerializerPlugins STRING
            SlurmSchedLogFile STRING
            SlurmSchedLogLevel UINT16
            SlurmUser STRING used
            SlurmctldAddr STRING
            SlurmctldDebug STRING used
            SlurmctldHost ARRAY used
            SlurmctldHttpAuthParameters STRING
            SlurmctldLogFile STRING used
            SlurmctldParameters STRING used
            SlurmctldPidFile STRING used
            SlurmctldPlugstack STRING defunct
            SlurmctldPort STRING used
            SlurmctldPrimaryOffProg STRING
            SlurmctldPrimaryOnProg STRING
            SlurmctldSyslogDebug STRING
            SlurmctldTimeout UINT16 used
            SlurmdDebug STRING used
            SlurmdHttpAuthParameters STRING
            SlurmdLogFile STRING used
            SlurmdParameters STRING
            SlurmdPidFile STRING used
            SlurmdPort UINT32 used
            SlurmdSpoolDir STRING used
            SlurmdSyslogDebug STRING
            SlurmdTimeout UINT16 used
            SlurmdUser STRING used
            SlurmrestdHttpAuthParameters STRING
            SlurmrestdParameters STRING
            SlurmstepdParameters STRING
            SrunEpilog STRING
            SrunPortRange STRING
            SrunProlog STRING
            StateSaveLocation STRING used
            SuspendExcNodes STRING
            SuspendExcParts STRING
            SuspendExcStates STRING
            SuspendProgram STRING
            SuspendRate UINT16
            SuspendTime STRING
            SuspendTimeout UINT16
            SwitchParameters STRING
            SwitchType STRING
            TCPTimeout UINT16 used
            TLSParameters STRING
            TLSType STRING
            TaskEpilog STRING
            TaskPlugin STRING used
            TaskPluginParam STRING
            TaskProlog STRING
            TmpFS STRING used
            TopologyParam STRING
            TopologyPlugin STRING
            TrackWCKey BOOLEAN
            TreeWidth UINT16
            UnkillableStepProgram STRING
            UnkillableStepTimeout UINT16
            UrlParserType STRING
            UsePAM BOOLEAN
            VSizeFactor UINT16
            WaitTime UINT16
            X11Parameters STRING
            """;

    private static final Map<String, Key> KEYS = parse(TABLE);

    /** Removed keys and the explanation Slurm gives (or, where Slurm just says "unrecognized key", ours). */
    private static final Map<String, String> REMOVED = removed();

    private static final Map<String, Set<String>> SUB_KEYS = subKeys();

    private SlurmConfKeys() {}

    private static Map<String, Key> parse(String table) {
        Map<String, Key> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String line : table.strip().split("\n")) {
            String[] f = line.strip().split(" +");
            Set<String> flags = Set.of(java.util.Arrays.copyOfRange(f, 2, f.length));
            out.put(f[0], new Key(f[0], Type.valueOf(f[1]), flags.contains("used"), flags.contains("defunct")));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, String> removed() {
        Map<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        // Slurm 22.05's own fatal messages.
        m.put(
                "AccountingStoreJobComment",
                "The AccountingStoreJobComment option has been removed, please use"
                        + " AccountingStoreFlags=job_comment option instead.");
        m.put(
                "AccountingStorageLoc",
                "The AccountingStorageLoc option has been removed. It is safe to remove from your configuration.");
        m.put(
                "SallocDefaultCommand",
                "SallocDefaultCommand has been removed. Please consider setting"
                        + " LaunchParameters=use_interactive_step instead.");
        // Keys older Slurm releases documented; Slurm 22.05 rejects them as unrecognized.
        for (String k : new String[] {
            "CacheGroups",
            "CheckpointType",
            "ChosLoc",
            "DefaultStorageHost",
            "DefaultStorageLoc",
            "DefaultStoragePass",
            "DefaultStoragePort",
            "DefaultStorageType",
            "DefaultStorageUser",
            "DynAllocPort",
            "JobCheckpointDir",
            "Layouts",
            "MemLimitEnforce",
            "MsgAggregationParams",
            "SchedulerPort",
            "SchedulerRootFilter",
            "SlurmdPlugstack"
        }) {
            m.put(
                    k,
                    "The " + k + " option has been removed from Slurm; delete it (Slurm 22.05:"
                            + " \"Parsing error at unrecognized key: " + k + "\").");
        }
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, Set<String>> subKeys() {
        Map<String, Set<String>> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.put(
                "NodeName",
                ci("BcastAddr Boards CoreSpecCount CoresPerSocket CPUs CPUSpecList CpuBind Feature Features"
                        + " Gres GresConf MemSpecLimit NodeAddr NodeHostname Parameters Port Procs RealMemory Reason"
                        + " RestrictedCoresPerGPU Sockets SocketsPerBoard State SuspendTime ThreadsPerCore TmpDisk Topology"
                        + " TRESWeights Weight"));
        m.put(
                "PartitionName",
                ci("AllocNodes AllowAccounts AllowGroups AllowQos Alternate CpuBind DefCPUPerGPU"
                        + " DefMemPerCPU DefMemPerGPU DefMemPerNode Default DefaultTime DenyAccounts DenyQos DisableRootJobs"
                        + " ExclusiveUser ExclusiveTopo GraceTime Hidden LLN MaxCPUsPerNode MaxCPUsPerSocket MaxMemPerCPU"
                        + " MaxMemPerNode MaxTime MaxNodes MinNodes Nodes OverSubscribe OverTimeLimit PowerDownOnIdle"
                        + " PreemptMode Priority PriorityJobFactor PriorityTier QOS RootOnly ReqResv ResumeTimeout"
                        + " SelectTypeParameters Shared State SuspendTime SuspendTimeout Topology TRESBillingWeights"));
        m.put("NodeSet", ci("Feature Nodes"));
        m.put("DownNodes", ci("Reason State"));
        m.put("FrontendName", ci("AllowGroups AllowUsers DenyGroups DenyUsers FrontendAddr Port Reason State"));
        m.put("PowerAction", ci("Location Program"));
        m.put("SlurmctldHost", ci(""));
        return Collections.unmodifiableMap(m);
    }

    private static Set<String> ci(String names) {
        Set<String> s = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (String n : names.split(" ")) {
            if (!n.isEmpty()) {
                s.add(n);
            }
        }
        return Collections.unmodifiableSet(s);
    }

    static Optional<Key> lookup(String key) {
        return Optional.ofNullable(KEYS.get(key));
    }

    static Optional<String> removal(String key) {
        return Optional.ofNullable(REMOVED.get(key));
    }

    /** Sub-keys of a line-type key, or empty when {@code key} is not line-type. */
    static Optional<Set<String>> subKeys(String key) {
        return Optional.ofNullable(SUB_KEYS.get(key));
    }

    /** Canonical spelling of a sub-key, for messages and maps. */
    static String canonicalSubKey(String lineKey, String subKey) {
        for (String s : SUB_KEYS.get(lineKey)) {
            if (s.equalsIgnoreCase(subKey)) {
                return s;
            }
        }
        return subKey;
    }

    static Set<String> allKeys() {
        return KEYS.keySet();
    }

    /** The known key nearest to a misspelt one, for "did you mean" hints; empty if none is close. */
    static Optional<String> suggest(String key, Iterable<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String k = key.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int d = Levenshtein.distance(k, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        int allowed = Math.max(1, Math.min(3, key.length() / 4));
        return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    static Map<String, Key> table() {
        return new LinkedHashMap<>(KEYS);
    }
}
