package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.time.TimeLimit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Behaviour of the reader on small inline files; each rule cites slurm.conf(5) or Slurm 22.05. */
class TestSlurmConfReader {

    static final String HEAD = "ClusterName=Lab\nSlurmctldHost=ctl\n";

    static SlurmConf parse(String text) throws ConfigException {
        return SlurmConfReader.parse(text, "slurm.conf", IncludeResolver.none());
    }

    static ConfigException error(String text) {
        try {
            parse(text);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected a ConfigException for:\n" + text);
    }

    @Test
    void defaults() throws Exception {
        SlurmConf c = parse(HEAD);
        assertThat(c.clusterName()).isEqualTo("lab"); // Slurm lower-cases ClusterName
        assertThat(c.controlHosts()).containsExactly("ctl");
        assertThat(c.slurmctldPort()).isEqualTo(6817);
        assertThat(c.slurmdPort()).isEqualTo(6818);
        assertThat(c.slurmdTimeoutSeconds()).isEqualTo(300);
        assertThat(c.killWaitSeconds()).isEqualTo(30);
        assertThat(c.minJobAgeSeconds()).isEqualTo(300);
        assertThat(c.returnToService()).isZero();
        assertThat(c.maxJobCount()).isEqualTo(10000);
        assertThat(c.firstJobId()).isEqualTo(1);
        assertThat(c.maxArraySize()).isEqualTo(1001);
        assertThat(c.stateSaveLocation()).isEqualTo("/var/spool");
        assertThat(c.slurmdSpoolDir()).isEqualTo("/var/spool/slurmd");
        assertThat(c.enableConfigless()).isFalse();
        assertThat(c.nodes()).isEmpty();
    }

    @Test
    void explicitMappings() throws Exception {
        SlurmConf c = parse(HEAD + """
                SlurmctldHost=backup(10.0.0.2)
                SlurmctldPort=7000-7003
                SlurmdPort=7010
                StateSaveLocation=/state
                SlurmdSpoolDir=/spool
                SlurmdTimeout=60
                KillWait=5
                MinJobAge=10
                ReturnToService=2
                MaxJobCount=5000
                FirstJobId=100
                MaxArraySize=20
                GresTypes=gpu,mps,shard
                SlurmctldParameters=enable_configless,idle_on_node_suspend
                SchedulerParameters=bf_max_job_test=100,default_queue_depth=50
                SelectType=select/cons_tres
                SelectTypeParameters=CR_Core_Memory
                PriorityWeightAge=1000
                """);
        assertThat(c.controlHosts()).containsExactly("ctl", "backup");
        assertThat(c.controlHostEntries().get(1).addr()).isEqualTo("10.0.0.2");
        assertThat(c.slurmctldPort()).isEqualTo(7000);
        assertThat(c.slurmctldPortCount()).isEqualTo(4);
        assertThat(c.slurmdPort()).isEqualTo(7010);
        assertThat(c.stateSaveLocation()).isEqualTo("/state");
        assertThat(c.slurmdSpoolDir()).isEqualTo("/spool");
        assertThat(c.slurmdTimeoutSeconds()).isEqualTo(60);
        assertThat(c.killWaitSeconds()).isEqualTo(5);
        assertThat(c.minJobAgeSeconds()).isEqualTo(10);
        assertThat(c.returnToService()).isEqualTo(2);
        assertThat(c.maxJobCount()).isEqualTo(5000);
        assertThat(c.firstJobId()).isEqualTo(100);
        assertThat(c.maxArraySize()).isEqualTo(20);
        assertThat(c.gresTypes()).containsExactly("gpu", "mps", "shard");
        assertThat(c.enableConfigless()).isTrue();
        assertThat(c.schedulerParameters()).containsExactly("bf_max_job_test=100", "default_queue_depth=50");
        assertThat(c.selectTypeParameters()).containsExactly("CR_Core_Memory");
        assertThat(c.priorityWeightAge()).isEqualTo(1000);
    }

    @Test
    void keysAreCaseInsensitiveAndQuotedValuesKeepSpaces() throws Exception {
        SlurmConf c = parse("clustername=x\nSLURMCTLDHOST=h\nnodename=n1 feature=\"a,b\" reason=\"two words\"\n"
                + "PARTITIONNAME=p nodes=n1\n");
        assertThat(c.value("CLUSTERNAME")).contains("x");
        assertThat(c.nodes().getFirst().features()).containsExactly("a", "b");
        assertThat(c.nodes().getFirst().status().reason()).isEqualTo("two words");
    }

    @Test
    void commentsContinuationsAndSpacesAroundEquals() throws Exception {
        SlurmConf c = parse("# comment\nClusterName = c # trailing\nSlurmctldHost=h\n"
                + "NodeName=n[1-2] \\\n   CPUs=4 \\\n   RealMemory=1000\nPartitionName=p Nodes=ALL\n");
        assertThat(c.nodes()).extracting(NodeConf::name).containsExactly("n1", "n2");
        assertThat(c.nodes().get(1).hardware().cpus()).isEqualTo(4);
        assertThat(c.nodes().get(1).hardware().realMemoryMb()).isEqualTo(1000);
        assertThat(c.nodes().get(1).source().line()).isEqualTo(4);
    }

    @Test
    void nodeDefaultsAndPositionalAddresses() throws Exception {
        SlurmConf c = parse(HEAD + """
                NodeName=DEFAULT CPUs=8 RealMemory=16000 Gres=gpu:2
                NodeName=n[1-3] NodeAddr=10.0.0.[1-3] NodeHostname=h[7-9]
                NodeName=DEFAULT CPUs=4
                NodeName=m1 Gres=gpu:tesla:2,mps:400
                """);
        assertThat(c.nodes()).hasSize(4);
        NodeConf n2 = c.node("n2").orElseThrow();
        assertThat(n2.address().addr()).isEqualTo("10.0.0.2");
        assertThat(n2.address().hostname()).isEqualTo("h8");
        assertThat(n2.hardware().cpus()).isEqualTo(8);
        assertThat(n2.gres().count("gpu")).isEqualTo(2);
        NodeConf m1 = c.node("m1").orElseThrow();
        assertThat(m1.hardware().cpus()).isEqualTo(4);
        assertThat(m1.hardware().realMemoryMb()).isEqualTo(16000);
        assertThat(m1.gres().count("gpu")).isEqualTo(2);
        assertThat(m1.gres().count("mps")).isEqualTo(400);
        assertThat(m1.address().addr()).isEqualTo("m1");
        assertThat(m1.address().port()).isEqualTo(6818);
    }

    @Test
    void topologyDefaultsFollowSlurm() throws Exception {
        SlurmConf c = parse(HEAD + """
                NodeName=a CPUs=16
                NodeName=b Sockets=2 CoresPerSocket=4 ThreadsPerCore=2
                NodeName=c CPUs=8 CoresPerSocket=4 ThreadsPerCore=2
                NodeName=d Boards=2 SocketsPerBoard=2 CoresPerSocket=2
                NodeName=e CPUs=7 CoresPerSocket=2
                """);
        NodeConf a = c.node("a").orElseThrow();
        assertThat(new int[] {
                    a.hardware().cpus(),
                    a.hardware().sockets(),
                    a.hardware().coresPerSocket(),
                    a.hardware().threadsPerCore()
                })
                .containsExactly(16, 16, 1, 1);
        assertThat(c.node("b").orElseThrow().hardware().cpus()).isEqualTo(16);
        NodeConf cc = c.node("c").orElseThrow();
        assertThat(cc.hardware().sockets()).isEqualTo(1);
        NodeConf d = c.node("d").orElseThrow();
        assertThat(new int[] {
                    d.hardware().cpus(), d.hardware().boards(), d.hardware().socketsPerBoard()
                })
                .containsExactly(8, 2, 2);
        // 7 CPUs cannot be split into sockets of 2 cores: sockets = boards = 1, CPUs corrected to 2
        NodeConf e = c.node("e").orElseThrow();
        assertThat(new int[] {e.hardware().cpus(), e.hardware().sockets()}).containsExactly(2, 1);
    }

    @Test
    void partitionsResolveNodesAndDefaults() throws Exception {
        SlurmConf c = parse(HEAD + """
                NodeName=n[1-4] Feature=gpu
                NodeName=c[1-2] Feature=cpu
                NodeSet=gpus Feature=gpu
                PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP
                PartitionName=all Nodes=ALL Default=YES
                PartitionName=gpu Nodes=gpus,c1 MaxTime=UNLIMITED AllowGroups=a,b OverSubscribe=FORCE:2
                PartitionName=old Nodes=n[3-4] Shared=YES State=DRAIN DefaultTime=30 PriorityTier=5
                """);
        PartitionConf all = c.partition("all").orElseThrow();
        assertThat(all.nodeNames()).containsExactly("n1", "n2", "n3", "n4", "c1", "c2");
        assertThat(all.isDefault()).isTrue();
        assertThat(all.limits().maxTimeMinutes()).isEqualTo(1440);
        assertThat(all.limits().defaultTimeMinutes()).isEqualTo(TimeLimit.NOT_SET);
        assertThat(all.access().allowGroups()).isEmpty();
        PartitionConf gpu = c.partition("gpu").orElseThrow();
        assertThat(gpu.nodeNames()).containsExactly("n1", "n2", "n3", "n4", "c1");
        assertThat(gpu.limits().maxTimeMinutes()).isEqualTo(TimeLimit.INFINITE);
        assertThat(gpu.access().allowGroups()).containsExactly("a", "b");
        assertThat(gpu.scheduling().overSubscribe()).isEqualTo("FORCE:2");
        PartitionConf old = c.partition("old").orElseThrow();
        assertThat(old.scheduling().overSubscribe()).isEqualTo("YES:4");
        assertThat(old.state()).isEqualTo(PartitionState.DRAIN);
        assertThat(old.limits().defaultTimeMinutes()).isEqualTo(30);
        assertThat(old.scheduling().priorityTier()).isEqualTo(5);
        assertThat(c.defaultPartition().orElseThrow().name()).isEqualTo("all");
        assertThat(c.nodeSets().getFirst().nodeNames()).containsExactly("n1", "n2", "n3", "n4");
    }

    @Test
    void includeIsRelativeAndSubstitutesClusterName() throws Exception {
        IncludeResolver files = IncludeResolver.of(Map.of("nodes-lab.conf", "NodeName=n1\nPartitionName=p Nodes=n1\n"));
        SlurmConf c =
                SlurmConfReader.parse("ClusterName=lab\nSlurmctldHost=h\ninclude nodes-%c.conf\n", "slurm.conf", files);
        assertThat(c.nodes()).extracting(n -> n.source().file()).containsExactly("nodes-lab.conf");
    }

    @Test
    void legacyControlMachine() throws Exception {
        SlurmConf c = parse("ClusterName=x\nControlMachine=a\nControlAddr=10.0.0.1\nBackupController=b\n");
        assertThat(c.controlHosts()).containsExactly("a", "b");
        assertThat(c.controlHostEntries().getFirst().addr()).isEqualTo("10.0.0.1");
    }

    @Test
    void unknownKeySuggestsTheNearestKnownOne() {
        ConfigException e = error(HEAD + "NodeNmae=n1\n");
        assertThat(e).hasMessage("slurm.conf:3: unknown key \"NodeNmae\" (did you mean \"NodeName\"?)");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.key()).contains("NodeNmae");
    }

    @Test
    void removedKeysGiveSlurmsMessage() {
        assertThat(error(HEAD + "AccountingStoreJobComment=YES\n"))
                .hasMessage("slurm.conf:3: The AccountingStoreJobComment option has been removed, please use"
                        + " AccountingStoreFlags=job_comment option instead.");
        assertThat(error(HEAD + "CacheGroups=0\n"))
                .hasMessageContaining("CacheGroups")
                .hasMessageStartingWith("slurm.conf:3:");
    }

    @Test
    void emptyValueIsAParseErrorAsInSlurm2205() {
        assertThat(error(HEAD + "SlurmctldPidFile=\n"))
                .hasMessageStartingWith("slurm.conf:3: Parse error: \"SlurmctldPidFile=\"");
    }

    @Test
    void missingClusterNameAndControllerUseSlurmsWords() {
        assertThat(error("SlurmctldHost=h\n")).hasMessage("slurm.conf: ClusterName needs to be specified");
        assertThat(error("ClusterName=c\n")).hasMessage("slurm.conf: No SlurmctldHost defined.");
    }

    @Test
    void badValuesNameFileLineAndKey() {
        assertThat(error(HEAD + "KillWait=soon\n"))
                .hasMessage("slurm.conf:3: KillWait value \"soon\" is not a valid number");
        assertThat(error(HEAD + "NodeName=n1 CPUs=-2\n")).hasMessage("slurm.conf:3: CPUs value (-2) is less than zero");
        assertThat(error(HEAD + "NodeName=n1 State=SLEEPY\n")).hasMessageContaining("Invalid node state");
        assertThat(error(HEAD + "NodeName=n1\nPartitionName=p Nodes=n2\n"))
                .hasMessageStartingWith("slurm.conf:4: Invalid node names in partition p");
        assertThat(error(HEAD + "NodeName=n1 Bogus=1\n"))
                .hasMessage("slurm.conf:3: unknown key \"Bogus\" in a NodeName line");
        assertThat(error(HEAD + "NodeName=n[1-2] NodeAddr=a[1-3]\n"))
                .hasMessageContaining("NodeAddr count must equal that of NodeName records");
        assertThat(error(HEAD + "PartitionName=p MaxTime=forever\n")).hasMessageContaining("MaxTime");
        assertThat(error(HEAD + "NodeName=n1\nNodeName=n1\n")).hasMessage("slurm.conf:4: Duplicated NodeName n1");
    }

    // Each case checked with Slurm 22.05.8's own parser (scontrol reading a slurm.conf holding it).
    @Test
    void valueChecksSlurmMakesWhileReading() {
        assertThat(error(HEAD + "KillWait=1 MinJobAge=2\n"))
                .hasMessageStartingWith("slurm.conf:3: Parse error: \"MinJobAge=2\"");
        assertThat(error(HEAD + "AccountingStorageEnforce=limits,bogus\n"))
                .hasMessage("slurm.conf:3: Invalid parameter for AccountingStorageEnforce: bogus");
        assertThat(error(HEAD + "EnforcePartLimits=bogus\n")).hasMessage("slurm.conf:3: Bad EnforcePartLimits: bogus");
        assertThat(error(HEAD + "PreemptMode=bogus\n")).hasMessage("slurm.conf:3: PreemptMode=bogus invalid");
        assertThat(error(HEAD + "PropagateResourceLimits=bogus\n"))
                .hasMessage("slurm.conf:3: Bad PropagateResourceLimits: bogus");
        assertThat(error(HEAD + "SlurmctldDebug=bogus\n")).hasMessage("slurm.conf:3: Invalid SlurmctldDebug bogus");
        assertThat(error(HEAD + "TaskPluginParam=bogus\n")).hasMessage("slurm.conf:3: Bad TaskPluginParam: bogus");
        assertThat(error(HEAD + "PriorityDecayHalfLife=bogus\n"))
                .hasMessage("slurm.conf:3: Bad value \"bogus\" for PriorityDecayHalfLife");
        assertThat(error(HEAD + "PriorityUsageResetPeriod=bogus\n"))
                .hasMessage("slurm.conf:3: Bad value \"bogus\" for PriorityUsageResetPeriod");
        assertThat(error(HEAD + "PreemptExemptTime=bogus\n"))
                .hasMessage("slurm.conf:3: PreemptExemptTime=bogus invalid");
        assertThat(error(HEAD + "MCSParameters=bogus\n"))
                .hasMessage("slurm.conf:3: MCSParameters=bogus used and no MCSPlugin");
        assertThat(error(HEAD + "SlurmSchedLogLevel=1\n"))
                .hasMessage("slurm.conf:3: SlurmSchedLogLevel requires SlurmSchedLogFile value");
        assertThat(error(HEAD + "FirstJobId=0\n")).hasMessage("slurm.conf:3: FirstJobId cannot be zero");
        assertThat(error(HEAD + "PreemptMode=SUSPEND,GANG\n"))
                .hasMessage("slurm.conf:3: PreemptType and PreemptMode values incompatible");
        assertThat(error(HEAD + "PreemptType=preempt/qos\nPreemptMode=SUSPEND\n"))
                .hasMessage("slurm.conf:4: PreemptMode=SUSPEND requires GANG too");
        assertThat(error(HEAD + "PreemptType=preempt/qos\n"))
                .hasMessage("slurm.conf:3: PreemptType and PreemptMode values incompatible");
        assertThat(error(HEAD + "FirstJobId=10\nMaxJobId=5\n")).hasMessage("slurm.conf:4: FirstJobId > MaxJobId");
    }

    @Test
    void laterLinesOverrideEarlierOnesAndPerNodeMemoryWins() throws Exception {
        SlurmConf c = parse(HEAD + "KillWait=1\nKillWait=2\nDefMemPerCPU=1000\nDefMemPerNode=8000\n");
        assertThat(c.killWaitSeconds()).isEqualTo(2);
        assertThat(c.defMemPerCpuMb()).isZero();
        assertThat(c.defMemPerNodeMb()).isEqualTo(8000);
        assertThat(c.warnings())
                .containsExactly(
                        "slurm.conf:5: DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode");
    }

    // Slurm 22.05.8 logs each of these as an error and carries on with the corrected value.
    @Test
    void correctionsSlurmLogsAreWarnings() throws Exception {
        SlurmConf c = parse(HEAD + """
                NodeName=a Sockets=2 SocketsPerBoard=1 CpuBind=bogus
                NodeName=b CoreSpecCount=99 MemSpecLimit=5 RealMemory=3
                NodeSet=empty
                DownNodes=a State=bogus
                PartitionName=p Nodes=a OverSubscribe=YES:1 CpuBind=bogus DefMemPerCPU=1 DefMemPerNode=2
                PartitionName=q Nodes=b OverSubscribe=force SelectTypeParameters=cr_core_memory
                """);
        assertThat(c.warnings())
                .containsExactly(
                        "slurm.conf:3: NodeNames=a Sockets=# and SocketsPerBoard=# is invalid , using SocketsPerBoard",
                        "slurm.conf:3: NodeNames=a CpuBind='bogus' is invalid, ignored",
                        "slurm.conf:4: NodeNames=b CoreSpecCount=99 is invalid, reset to 1",
                        "slurm.conf:4: NodeNames=b MemSpecLimit=5 is invalid, reset to 0",
                        "slurm.conf:5: NodeSet empty has neither Nodes= nor Feature= and is empty",
                        "slurm.conf:6: Invalid State \"BOGUS\"; DownNodes line ignored",
                        "slurm.conf:7: Ignoring bad OverSubscribe value: YES:1",
                        "slurm.conf:7: Partition=p CpuBind='bogus' is invalid, ignored",
                        "slurm.conf:7: DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode");
        assertThat(c.node("a").orElseThrow().hardware().sockets()).isEqualTo(1);
        assertThat(c.node("a").orElseThrow().status().state()).isEqualTo("UNKNOWN");
        assertThat(c.node("b").orElseThrow().spec().coreSpecCount()).isEqualTo(1);
        assertThat(c.node("b").orElseThrow().spec().memSpecLimitMb()).isZero();
        assertThat(c.partition("p").orElseThrow().scheduling().overSubscribe()).isEqualTo("NO");
        assertThat(c.partition("p").orElseThrow().memory().defMemPerCpuMb()).isZero();
        assertThat(c.partition("q").orElseThrow().scheduling().overSubscribe()).isEqualTo("FORCE:4");
        assertThat(c.partition("q").orElseThrow().scheduling().selectTypeParameters())
                .isEqualTo("CR_Core_Memory");
        assertThat(error(HEAD + "NodeName=a\nPartitionName=p Nodes=a OverSubscribe=bogus\n"))
                .hasMessage("slurm.conf:4: Bad value \"bogus\" for OverSubscribe");
        assertThat(error(HEAD + "NodeName=a\nPartitionName=p Nodes=a SelectTypeParameters=bogus\n"))
                .hasMessage("slurm.conf:4: Bad value for SelectTypeParameters: bogus");
        assertThat(error(HEAD + "NodeName=a\nPartitionName=p Nodes=a PreemptMode=bogus\n"))
                .hasMessage("slurm.conf:4: Bad value \"bogus\" for PreemptMode");
    }

    @Test
    void ignoredKeysAreReportedWithTheirLocation() throws Exception {
        SlurmConf c = parse(HEAD + "MailProg=/bin/mail\nAccountingStorageUser=slurm\n");
        assertThat(c.ignoredKeys())
                .extracting(IgnoredKey::toString)
                .containsExactly(
                        "slurm.conf:3: MailProg=/bin/mail",
                        "slurm.conf:4: AccountingStorageUser=slurm (defunct in current Slurm)");
    }

    @Test
    void licensesAreReadOnceIntoCountsAndAnUnreadableListIsRefused() throws Exception {
        assertThat(parse(HEAD).licenses().isEmpty()).isTrue();
        assertThat(parse(HEAD + "Licenses=foo:4,bar\n").licenses().counts())
                .containsExactly(Map.entry("bar", 1L), Map.entry("foo", 4L));
        assertThat(error(HEAD + "Licenses=foo:x\n")).hasMessage("slurm.conf:3: Invalid configured licenses: foo:x");
    }
}
