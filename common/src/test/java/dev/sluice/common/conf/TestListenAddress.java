package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** CommunicationParameters as slurm.conf(5) defines NoCtldInAddrAny and NoInAddrAny. */
class TestListenAddress {
    private static final String HEAD = "ClusterName=c\nSlurmctldHost=ctl(10.0.0.1)\nSlurmctldHost=backup(10.0.0.2)\n";

    private static SlurmConf conf(String extra) throws ConfigException {
        return SlurmConfReader.parse(HEAD + extra, "slurm.conf", IncludeResolver.none());
    }

    @Test
    void everyAddressByDefaultAsSlurmDoes() throws ConfigException {
        SlurmConf c = conf("");
        assertThat(ListenAddress.controller(c, "ctl")).isEqualTo(ListenAddress.ANY);
        assertThat(ListenAddress.node(c, "10.0.1.5")).isEqualTo(ListenAddress.ANY);
    }

    @Test
    void noCtldInAddrAnyBindsTheControllerToItsOwnEntrysAddress() throws ConfigException {
        SlurmConf c = conf("CommunicationParameters=NoCtldInAddrAny\n");
        assertThat(ListenAddress.controller(c, "ctl")).isEqualTo("10.0.0.1");
        assertThat(ListenAddress.controller(c, "backup")).isEqualTo("10.0.0.2");
        // A host that is no SlurmctldHost (a container's name, say): the primary's address.
        assertThat(ListenAddress.controller(c, "elsewhere")).isEqualTo("10.0.0.1");
        // The flag is the controller's only: node daemons still bind every address.
        assertThat(ListenAddress.node(c, "10.0.1.5")).isEqualTo(ListenAddress.ANY);
    }

    @Test
    void noInAddrAnyBindsEveryDaemonButTheControllerToItsAddress() throws ConfigException {
        SlurmConf c = conf("CommunicationParameters=keepalivetime=30,noinaddrany\n");
        assertThat(ListenAddress.node(c, "10.0.1.5")).isEqualTo("10.0.1.5");
        assertThat(ListenAddress.controller(c, "ctl")).isEqualTo(ListenAddress.ANY);
    }

    @Test
    void aControllerWithoutAnAddressBindsWhatItsNameResolvesTo() throws ConfigException {
        SlurmConf c = SlurmConfReader.parse(
                "ClusterName=c\nSlurmctldHost=ctl\nCommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n",
                "slurm.conf",
                IncludeResolver.none());
        assertThat(ListenAddress.controller(c, "ctl")).isEqualTo("ctl");
    }

    @Test
    void flagsAreWholeItemsInAnyCase() {
        assertThat(ListenAddress.has(" NoInAddrAny ,EnableIPv6", ListenAddress.NO_IN_ADDR_ANY))
                .isTrue();
        assertThat(ListenAddress.has("NoCtldInAddrAny", ListenAddress.NO_IN_ADDR_ANY))
                .isFalse();
        assertThat(ListenAddress.has(null, ListenAddress.NO_IN_ADDR_ANY)).isFalse();
    }
}
