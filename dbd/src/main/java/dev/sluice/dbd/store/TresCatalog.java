package dev.sluice.dbd.store;

import dev.sluice.dbd.model.TresName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code tres} table as maps both ways. New TRES names (a GRES type seen for the first time)
 * get the next id from 1001 up, inside the caller's transaction, so a rolled-back batch leaves
 * no orphan ids behind. Read from the connection it is handed; not shared between threads.
 */
final class TresCatalog {
    /** Slurm numbers dynamic TRES (GRES, licenses, ...) from here. */
    static final int FIRST_DYNAMIC_ID = 1001;

    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, String> names = new HashMap<>();

    static TresCatalog load(Connection c) throws SQLException {
        TresCatalog catalog = new TresCatalog();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, tres_type, tres_name FROM tres");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String full = new TresName(rs.getString(2), rs.getString(3)).full();
                catalog.ids.put(full, rs.getInt(1));
                catalog.names.put(rs.getInt(1), full);
            }
        }
        return catalog;
    }

    String nameOf(int id) {
        return names.get(id);
    }

    /** The id of a TRES, inserting it when new. */
    int idOf(Connection c, String fullName) throws SQLException {
        Integer known = ids.get(fullName);
        if (known != null) {
            return known;
        }
        int next = FIRST_DYNAMIC_ID;
        for (int id : names.keySet()) {
            next = Math.max(next, id + 1);
        }
        TresName n = TresName.parse(fullName);
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO tres (id, tres_type, tres_name) VALUES (?, ?, ?)")) {
            ps.setInt(1, next);
            ps.setString(2, n.type());
            ps.setString(3, n.name());
            ps.executeUpdate();
        }
        ids.put(fullName, next);
        names.put(next, fullName);
        return next;
    }
}
