package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.conf.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * sluice-agent's setup: each slurm.conf is parsed once and kept while none of the files its
 * answer came from changes (compared by modification time, size and file identity, so an
 * edit, a replacement by rename, a new key or a new included file is seen on the next call),
 * and connections to the controllers stay open in a {@link ConnectionPool}. A configuration
 * that fails to read is not kept: the next call reads it again and reports what is wrong now.
 */
public final class CachedClientSetup implements ClientSetup, AutoCloseable {
    private static final Duration RACY = Duration.ofSeconds(2);

    private final ConnectionPool pool;
    private final Clock clock;
    private final QueryCoalescer queries = QueryCoalescer.sharing();
    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();

    public CachedClientSetup(ConnectionPool pool, Clock clock) {
        this.pool = requireNonNull(pool, "pool is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public QueryCoalescer queries() {
        return queries;
    }

    private record Entry(ClusterAccess access, List<Object> stamps) {}

    @Override
    public ClusterAccess access(Path slurmConfPath) throws ConfigException {
        Path key = slurmConfPath.toAbsolutePath().normalize();
        Entry entry = entries.get(key);
        if (entry != null && entry.stamps.equals(stamps(entry.access.files()))) {
            return entry.access;
        }
        ClusterAccess fresh;
        try {
            fresh = ClusterAccess.read(slurmConfPath);
        } catch (ConfigException e) {
            entries.remove(key);
            throw e;
        }
        List<Object> stamps = stamps(fresh.files());
        // As git does with its index: a file modified within the clock's granularity of the read
        // may change again without its stamp changing, so such an answer is not kept.
        if (!recentlyModified(fresh.files(), clock.instant())) {
            entries.put(key, new Entry(fresh, stamps));
        }
        return fresh;
    }

    private static boolean recentlyModified(List<Path> files, Instant now) {
        for (Path f : files) {
            try {
                Instant modified = Files.getLastModifiedTime(f).toInstant();
                if (modified.isAfter(now.minus(RACY))) {
                    return true;
                }
            } catch (IOException e) {
                // absent: nothing to race with
            }
        }
        return false;
    }

    @Override
    public Transport transport() {
        return pool;
    }

    /** One stamp per file: absent, or (modified, size, identity). */
    static List<Object> stamps(List<Path> files) {
        List<Object> out = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                out.add(List.of(a.lastModifiedTime(), a.size(), Objects.requireNonNullElse(a.fileKey(), "")));
            } catch (NoSuchFileException e) {
                out.add("absent");
            } catch (IOException e) {
                out.add("unreadable: " + e.getMessage());
            }
        }
        return out;
    }

    @Override
    public void close() {
        pool.close();
    }
}
