package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.ListTresResult;
import dev.sluice.protocol.v1.TresEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/** The {@code tres} table as {@code sacctmgr show tres} lists it: by id, filtered. */
public final class TresStore {
    private final DataSource ds;

    public TresStore(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    public ListTresResult list(ListTresRequest r) throws SQLException {
        return Tx.run(ds, false, c -> {
            ListTresResult.Builder out = ListTresResult.newBuilder();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, tres_type, tres_name FROM tres ORDER BY id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TresEntry t = TresEntry.newBuilder()
                            .setId(rs.getInt(1))
                            .setType(rs.getString(2))
                            .setName(rs.getString(3))
                            .build();
                    if (matches(r, t)) {
                        out.addTres(t);
                    }
                }
            }
            return out.build();
        });
    }

    // Slurm compares TRES types and names without regard to case.
    private static boolean matches(ListTresRequest r, TresEntry t) {
        return (r.getTypesList().isEmpty()
                        || lower(r.getTypesList()).contains(t.getType().toLowerCase(Locale.ROOT)))
                && (r.getNamesList().isEmpty()
                        || lower(r.getNamesList()).contains(t.getName().toLowerCase(Locale.ROOT)))
                && (r.getIdsList().isEmpty() || r.getIdsList().contains(t.getId()));
    }

    private static java.util.List<String> lower(java.util.List<String> words) {
        return words.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList();
    }
}
