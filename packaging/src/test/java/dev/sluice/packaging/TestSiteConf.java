package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code sluice up --slurm-conf}: a site's file on one host, everything else as written. */
class TestSiteConf {
    private static final String SITE = """
            ClusterName=anchor
            SlurmctldHost=head1(10.0.0.1)
            SlurmctldHost=head2
            SlurmctldPort=6817
            AccountingStorageType=accounting_storage/slurmdbd
            AccountingStorageHost=db1
            AccountingStoragePort=6819
            NodeName=DEFAULT CPUs=4
            NodeName=n[1-2] NodeAddr=10.0.1.[1-2] Port=6821,6822 Gres=gpu:3 Features="a,b" State=UNKNOWN # two GPU nodes
            NodeName=big NodeHostname=bighost RealMemory=8000
            PartitionName=gpu Nodes=n[1-2],big Default=YES MaxTime=60 State=UP
            """;

    private static SiteConf.Rewritten rewrite(String text) {
        return SiteConf.rewrite(text);
    }

    @Test
    void everyNodeGetsThisHostAndNoPortAndKeepsTheRest() {
        SiteConf.Rewritten site = rewrite(SITE);
        assertThat(site.nodes()).containsExactly("n1", "n2", "big");
        assertThat(site.slurmConf())
                .contains("NodeName=DEFAULT CPUs=4\n")
                .contains("NodeName=n[1-2] Gres=gpu:3 Features=\"a,b\" State=UNKNOWN"
                        + " NodeHostname=localhost NodeAddr=127.0.0.1\n")
                .contains("NodeName=big RealMemory=8000 NodeHostname=localhost NodeAddr=127.0.0.1\n")
                .contains("PartitionName=gpu Nodes=n[1-2],big Default=YES MaxTime=60 State=UP\n");
    }

    @Test
    void theFirstControllerStaysUnderItsNameOnLoopbackAndTheDaemonsListenThereOnly() {
        String conf = rewrite(SITE).slurmConf();
        assertThat(conf).contains("SlurmctldHost=head1(127.0.0.1)\n").doesNotContain("head2");
        // The port the controller binds is written in later (LocalClusterFiles.stampPorts).
        assertThat(conf).doesNotContain("SlurmctldPort=").doesNotContain("6817");
        assertThat(conf).contains("CommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n");
    }

    @Test
    void accountingGoesToTheLocalDbdOnlyWhenTheSiteHasOne() {
        SiteConf.Rewritten with = rewrite(SITE);
        assertThat(with.accounting()).isTrue();
        assertThat(with.slurmConf())
                .contains("AccountingStorageHost=127.0.0.1\n")
                .doesNotContain("AccountingStoragePort=")
                .doesNotContain("db1");
        SiteConf.Rewritten without = rewrite("ClusterName=x\nSlurmctldHost=h\nNodeName=a CPUs=1\n");
        assertThat(without.accounting()).isFalse();
        assertThat(without.slurmConf()).doesNotContain("AccountingStorage");
    }
}
