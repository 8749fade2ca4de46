package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** A QOS's TRES lists as sacctmgr sends them and as its Settings lines show them (compat 195, 231, 281). */
class TestSacctmgrQosTres {
    @Test
    void settingsShowMemoryWithItsUnitSortedByName() {
        assertThat(SacctmgrQos.settingsTres("gres/gpu=1,mem=1000")).isEqualTo("gres/gpu=1,mem=1000M");
        assertThat(SacctmgrQos.settingsTres("cpu=2,mem=1000,gres/gpu=1")).isEqualTo("cpu=2,gres/gpu=1,mem=1000M");
        assertThat(SacctmgrQos.settingsTres("node=1,mem=1500,gres/gpu=2")).isEqualTo("gres/gpu=2,mem=1500M,node=1");
        assertThat(SacctmgrQos.settingsTres("mem=2G,cpu=2")).isEqualTo("cpu=2,mem=2G");
    }

    @Test
    void aPerNodeListIsCheckedLikeTheOthers() {
        assertThat(SacctmgrQos.tresList("gres/gpu=1,mem=1000", Set.of("gres", "mem")))
                .isEqualTo("gres/gpu=1,mem=1000");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SacctmgrQos.tresList("bogus=1", Set.of("cpu")))
                .hasMessage("sacctmgr: error: slurmdb_format_tres_str: no TRES known by type bogus");
    }
}
