package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.WckeyEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sacctmgr show wckey}'s conditions, columns and values, as Slurm 22.05 reads them (compat 207). */
class TestSacctmgrWckeys {
    private static SacctmgrWckeys.Conditions parse(String... words) {
        return SacctmgrWckeys.parse(List.of(words));
    }

    private static List<String> columns(SacctmgrWckeys.Conditions c) {
        return c.columns().stream()
                .map(col -> col.field().title + "%" + col.width())
                .toList();
    }

    @Test
    void withoutConditionsEveryWckeyIsAskedForUnderWckeyClusterUser() {
        var c = parse();
        assertThat(c.query().getNamesList()).isEmpty();
        assertThat(c.query().getWithDeleted()).isFalse();
        assertThat(columns(c)).containsExactly("WCKey%10", "Cluster%10", "User%10");
    }

    @Test
    void conditionsTakeTheirShortestPrefixesAndBareWordsAreNames() {
        var c = parse("where", "w1", "wckeys=w2,w3", "nam=w4", "u=sluiceuser1", "clu=anchor", "i=3,4", "withd", "set");
        assertThat(c.query().getNamesList()).containsExactly("w1", "w2", "w3", "w4");
        assertThat(c.query().getUsersList()).containsExactly("sluiceuser1");
        assertThat(c.query().getClustersList()).containsExactly("anchor");
        assertThat(c.query().getIdsList()).containsExactly(3, 4);
        assertThat(c.query().getWithDeleted()).isTrue();
        // Usage bounds narrow nothing this listing shows.
        assertThat(parse("start=now", "end=now").query()).isEqualTo(parse().query());
    }

    @Test
    void tooShortOrUnknownConditionsAreRefusedOnOneLine() {
        assertThatThrownBy(() -> parse("n=w1")).hasMessage(" Unknown condition: n=w1");
        assertThatThrownBy(() -> parse("wc=w1")).hasMessage(" Unknown condition: wc=w1");
        assertThatThrownBy(() -> parse("c=anchor")).hasMessage(" Unknown condition: c=anchor");
        assertThatThrownBy(() -> parse("ids=x")).hasMessage("sacctmgr: error: Invalid value for WCKeyID (x)");
    }

    @Test
    void formatPicksAmongWckeysOwnFourColumns() {
        assertThat(columns(parse("format=w,n,cl,u,i,user%4,Cluster%-5")))
                .containsExactly("WCKey%10", "WCKey%10", "Cluster%10", "User%10", "ID%6", "User%4", "Cluster%-5");
        // sacctmgr's common fields are not wckey's: c is no column here, nor is an empty name.
        assertThatThrownBy(() -> parse("format=name%20,c")).hasMessage("Unknown field 'c'");
        assertThatThrownBy(() -> parse("format=account")).hasMessage("Unknown field 'account'");
        assertThatThrownBy(() -> parse("format=")).hasMessage("Unknown field ''");
    }

    @Test
    void aRowPrintsItsIdUnsigned() {
        WckeyEntry w = WckeyEntry.newBuilder()
                .setId(-1)
                .setName("w1")
                .setCluster("anchor")
                .setUser("u1")
                .build();
        assertThat(SacctmgrWckeys.value(w, SacctmgrWckeys.Field.ID)).isEqualTo("4294967295");
        assertThat(SacctmgrWckeys.value(w, SacctmgrWckeys.Field.NAME)).isEqualTo("w1");
    }

    @Test
    void everyPrefixOfWckeysNamesTheEntity() {
        assertThat(SacctmgrWckeys.names("w")).isTrue();
        assertThat(SacctmgrWckeys.names("WCKEYS")).isTrue();
        assertThat(SacctmgrWckeys.names("wckeyss")).isFalse();
    }
}
