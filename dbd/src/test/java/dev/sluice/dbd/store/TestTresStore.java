package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.dbd.config.DbdConfigs;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.TresEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sacctmgr show tres}: Slurm's built-in TRES by id, filtered by type, name or id. */
class TestTresStore {
    @TempDir
    Path dir;

    private static List<String> rows(TresStore store, ListTresRequest.Builder q) throws Exception {
        return store.list(q.build()).getTresList().stream()
                .map(t -> t.getType() + "|" + t.getName() + "|" + t.getId())
                .toList();
    }

    @Test
    void listsTheBuiltInTresInIdOrderAndFilters() throws Exception {
        try (Database db = Database.open(DbdConfigs.embeddedUrl(dir), "", "", 2)) {
            TresStore store = new TresStore(db.dataSource());
            assertThat(rows(store, ListTresRequest.newBuilder()))
                    .startsWith(
                            "cpu||1",
                            "mem||2",
                            "energy||3",
                            "node||4",
                            "billing||5",
                            "fs|disk|6",
                            "vmem||7",
                            "pages||8");
            assertThat(rows(store, ListTresRequest.newBuilder().addTypes("FS"))).containsExactly("fs|disk|6");
            assertThat(rows(store, ListTresRequest.newBuilder().addNames("disk").addIds(6)))
                    .containsExactly("fs|disk|6");
            assertThat(store.list(ListTresRequest.newBuilder().addIds(2).build())
                            .getTresList())
                    .extracting(TresEntry::getType)
                    .containsExactly("mem");
        }
    }
}
