package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.AccountingEntries;
import dev.sluice.dbd.model.AccountingEntry;
import dev.sluice.dbd.model.TresCounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the controller's accounting batches. One batch is one transaction: the cluster's
 * applied-sequence row is locked, records at or below it are skipped, the rest are written and
 * the mark moved past them. A batch re-sent after a lost ack therefore changes nothing and gets
 * the same answer; two controllers of one cluster (a failover) are serialised on that row.
 *
 * <p>Job rows are keyed by (cluster, job id, submit time) as in Slurm, and each record carries
 * the whole job as it stands after the event, so applying it is an upsert. A batch's job and
 * step rows are read and written in bulk ({@link JobWrites}), not record by record.
 */
public final class AccountingStore {
    private static final Logger log = LoggerFactory.getLogger(AccountingStore.class);

    private final DataSource ds;
    private final InstantSource clock;
    private final Map<String, Long> clusterIds = new ConcurrentHashMap<>();

    public AccountingStore(DataSource ds, InstantSource clock) {
        this.ds = requireNonNull(ds, "ds is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Applies a batch and answers the highest sequence now applied for its cluster. */
    public long apply(AccountingEntries batch) throws SQLException {
        long clusterId = cachedClusterId(batch.cluster());
        try (Connection c = ds.getConnection()) {
            try {
                long applied = lockApplied(c, clusterId, batch.cluster());
                TresCatalog tres = TresCatalog.load(c);
                List<AccountingEntry> fresh = new ArrayList<>(batch.entries().size());
                long through = applied;
                for (AccountingEntry e : batch.entries()) {
                    if (e.sequence() > through) {
                        fresh.add(e);
                        through = e.sequence();
                    }
                }
                // Job and step rows are read up front and written at the end, in bulk.
                JobWrites jobs = JobWrites.read(c, tres, clusterId, fresh);
                long rewind = Long.MAX_VALUE;
                for (AccountingEntry e : fresh) {
                    long changed = switch (e) {
                        case AccountingEntry.Job job -> jobs.job(job);
                        case AccountingEntry.Step step -> {
                            jobs.step(step);
                            yield Long.MAX_VALUE;
                        }
                        case AccountingEntry.ClusterSize size -> ClusterTres.apply(c, tres, clusterId, size);
                        case AccountingEntry.Reservation resv -> {
                            ReservationStore.apply(c, clusterId, resv);
                            yield Long.MAX_VALUE;
                        }
                    };
                    rewind = Math.min(rewind, changed);
                }
                jobs.write();
                if (rewind != Long.MAX_VALUE) {
                    // Hours already rolled up that this batch changes are rolled again.
                    UsageRollup.rewind(c, clusterId, rewind);
                }
                if (through != applied) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE applied_sequence SET applied_through = ?, updated_at = ? WHERE cluster_id = ?")) {
                        ps.setLong(1, through);
                        ps.setLong(2, clock.instant().getEpochSecond());
                        ps.setLong(3, clusterId);
                        ps.executeUpdate();
                    }
                }
                c.commit();
                return through;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * A cluster's id, registering it the first time: clusters are never removed, so the id is
     * kept rather than read again with every batch.
     */
    private long cachedClusterId(String name) throws SQLException {
        Long known = clusterIds.get(name);
        if (known != null) {
            return known;
        }
        long id = ensureCluster(name);
        clusterIds.put(name, id);
        return id;
    }

    /** The highest applied sequence of a cluster, 0 when it never sent anything. */
    public long appliedThrough(String cluster) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT a.applied_through FROM applied_sequence a"
                        + " JOIN clusters k ON k.id = a.cluster_id WHERE k.name = ?")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                long v = rs.next() ? rs.getLong(1) : 0;
                c.commit();
                return v;
            }
        }
    }

    /** Creates the cluster row in its own transaction; a concurrent creator wins harmlessly. */
    public long ensureCluster(String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            Long id = clusterId(c, name);
            if (id != null) {
                c.commit();
                return id;
            }
            try {
                long created = insertCluster(c, name, clock.instant().getEpochSecond());
                c.commit();
                log.info("registered cluster {}", name);
                return created;
            } catch (SQLException e) {
                c.rollback();
                if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
                    throw e;
                }
                Long raced = clusterId(c, name);
                c.commit();
                if (raced == null) {
                    throw e;
                }
                return raced;
            }
        }
    }

    /** Inserts a cluster with its applied-sequence row and root associations; returns its id. */
    static long insertCluster(Connection c, String name, long now) throws SQLException {
        long created;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO clusters (name, created_at) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setLong(2, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                created = keys.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO applied_sequence (cluster_id, applied_through, updated_at) VALUES (?, 0, ?)")) {
            ps.setLong(1, created);
            ps.setLong(2, now);
            ps.executeUpdate();
        }
        NewAssociations.rootAssociations(c, name, now);
        // New associations: the controllers' next poll must see them.
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE acct_policy_version SET version = version + 1 WHERE id = 1")) {
            ps.executeUpdate();
        }
        return created;
    }

    private static Long clusterId(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM clusters WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private long lockApplied(Connection c, long clusterId, String name) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT applied_through FROM applied_sequence WHERE cluster_id = ? FOR UPDATE")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // The database was replaced under the daemon: the next try registers anew.
                    clusterIds.remove(name);
                    throw new SQLException("no applied_sequence row for cluster " + clusterId);
                }
                return rs.getLong(1);
            }
        }
    }

    static String idForm(Connection c, TresCatalog tres, String named) throws SQLException {
        TresCounts counts;
        try {
            counts = TresCounts.parseNamed(named);
        } catch (IllegalArgumentException e) {
            // A TRES string this version cannot read must not wedge the controller's outbox.
            log.warn("unreadable TRES \"{}\" not stored: {}", named, e.getMessage());
            return "";
        }
        Map<String, Integer> ids = new HashMap<>();
        for (String name : counts.counts().keySet()) {
            ids.put(name, tres.idOf(c, name));
        }
        return clip(counts.toIdForm(ids::get), 1024);
    }

    /** Values longer than their column are cut rather than failing the batch forever. */
    static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
