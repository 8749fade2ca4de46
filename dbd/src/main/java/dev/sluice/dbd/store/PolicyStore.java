package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.PolicyRequest;
import dev.sluice.protocol.v1.PolicySnapshot;
import dev.sluice.protocol.v1.UserEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * What a controller enforces: one cluster's associations, the users' default accounts, the
 * QOS and the users' wckeys there, read in one transaction so they match the version they carry.
 */
public final class PolicyStore {
    private final DataSource ds;

    public PolicyStore(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    public PolicySnapshot snapshot(PolicyRequest r) throws SQLException {
        return Tx.run(ds, false, c -> {
            long version = Tx.version(c);
            if (version == r.getKnownVersion()) {
                return PolicySnapshot.newBuilder()
                        .setVersion(version)
                        .setUnchanged(true)
                        .build();
            }
            PolicySnapshot.Builder out = PolicySnapshot.newBuilder().setVersion(version);
            out.addAllAssociations(AssociationRows.read(
                    c,
                    ListAssocRequest.newBuilder()
                            .addClusters(r.getClusterName())
                            .build()));
            try (PreparedStatement ps =
                            c.prepareStatement("SELECT name, default_account, admin_level FROM acct_users");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.addUsers(UserEntry.newBuilder()
                            .setName(rs.getString(1))
                            .setDefaultAccount(rs.getString(2))
                            .setAdminLevel(rs.getString(3)));
                }
            }
            out.addAllQos(QosStore.read(c, List.of()));
            out.addAllWckeys(WckeyStore.read(
                    c,
                    ListWckeysRequest.newBuilder()
                            .addClusters(r.getClusterName())
                            .build()));
            return out.build();
        });
    }
}
