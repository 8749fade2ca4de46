package dev.sluice.ctld.accounting;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.common.files.OwnerOnly;
import dev.sluice.protocol.v1.AccountingRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Accounting records waiting for sluice-dbd, durable in segment files under
 * {@code StateSaveLocation/accounting}: {@code [u32 length][u32 crc32c][u64 journal sequence]
 * [AccountingRecord]}, the checksum covering the last two.
 *
 * <p>Protocol with the controller loop (one thread): {@link #append} while a batch is decided,
 * {@link #sync} just <em>before</em> the journal's sync, {@link #published} just after. A record
 * becomes visible to the shipper only once the journal entry it derives from is durable, so a
 * crash between the two syncs leaves outbox records whose journal entries were lost; they were
 * never shipped and {@link #open} cuts them off. A record is therefore shipped if and only if its
 * journal entry survives.
 *
 * <p>Sequences start, for a new outbox, from the wall clock in microseconds, so a controller
 * whose StateSaveLocation was wiped still sends sequences above the ones sluice-dbd has applied.
 *
 * <p>The shipper's side ({@link #awaitBatch}, {@link #acknowledge}, {@link #depth}) is thread-safe.
 * Acknowledged records are dropped from memory and whole acknowledged segments deleted. The
 * acknowledged mark is also written to a small file, without a sync: if it is stale after a
 * crash, a few delivered records are sent again and sluice-dbd skips them by sequence.
 *
 * <p>A record is serialised once, by {@link #append}: memory keeps the bytes written to the
 * segment, and the shipper sends those very bytes ({@link #awaitEntries}).
 */
public final class Outbox implements AutoCloseable {
    private static final String PREFIX = "outbox-";
    private static final String SUFFIX = ".log";
    private static final int HEADER = 16;
    private static final String ACKED = "acknowledged";
    static final long ROLL_BYTES = 256 * 1024;
    /** A batch's records together stay well inside gRPC's 4 MiB message limit at sluice-dbd. */
    static final long MAX_BATCH_BYTES = 2L * 1024 * 1024;

    /** A record as stored and shipped: serialised once, when appended. */
    record Entry(long sequence, long journalSequence, byte[] body) {}

    private final Path dir;
    private final long rollBytes;
    private final Object lock = new Object();
    // Guarded by lock.
    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    private final TreeMap<Long, Path> segments = new TreeMap<>();
    private final Map<Path, Long> lastSequenceOf = new java.util.HashMap<>();
    private long durableJournal;
    private FileChannel current;
    private Path currentPath;
    // Loop thread only.
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final List<Entry> unsynced = new ArrayList<>();
    private long nextSequence;

    private Outbox(Path dir, long rollBytes) {
        this.dir = dir;
        this.rollBytes = rollBytes;
    }

    /**
     * Opens (creating) the outbox and drops records newer than the journal.
     *
     * @param journalThrough the highest journal sequence recovery found durable
     */
    public static Outbox open(Path dir, long journalThrough, InstantSource clock) throws IOException {
        return open(dir, journalThrough, clock, ROLL_BYTES);
    }

    static Outbox open(Path dir, long journalThrough, InstantSource clock, long rollBytes) throws IOException {
        // Accounting records carry jobs' names, commands and work directories: owner-only.
        OwnerOnly.createDirectories(dir);
        Files.setPosixFilePermissions(dir, OwnerOnly.DIRECTORY_MODE);
        Outbox o = new Outbox(dir, rollBytes);
        Path ackFile = dir.resolve(ACKED);
        long acked = 0;
        if (Files.exists(ackFile)) {
            try {
                acked = Long.parseLong(Files.readString(ackFile).strip());
            } catch (NumberFormatException e) {
                // A torn mark only means re-sending; start from nothing.
            }
        }
        long next = Math.max(1, clock.instant().toEpochMilli() * 1000);
        List<Path> files = list(dir);
        boolean cut = false;
        for (Path file : files) {
            long first = Long.parseLong(
                    name(file).substring(PREFIX.length(), name(file).length() - SUFFIX.length()));
            next = Math.max(next, first);
            if (cut) {
                Files.delete(file);
                continue;
            }
            cut = o.load(file, journalThrough, acked);
            o.segments.put(first, file);
        }
        for (long last : o.lastSequenceOf.values()) {
            next = Math.max(next, last + 1);
        }
        next = Math.max(next, acked + 1);
        o.nextSequence = next;
        o.durableJournal = journalThrough;
        if (o.segments.isEmpty()) {
            o.roll();
        } else {
            o.currentPath = o.segments.lastEntry().getValue();
            o.current = FileChannel.open(o.currentPath, StandardOpenOption.WRITE);
            o.current.position(o.current.size());
        }
        return o;
    }

    /** Reads one segment into {@link #pending}; true when it was cut short (later ones go). */
    private boolean load(Path file, long journalThrough, long acked) throws IOException {
        byte[] data = Files.readAllBytes(file);
        int offset = 0;
        long last = 0;
        while (offset < data.length) {
            boolean ok = data.length - offset >= HEADER;
            int length = 0;
            long journalSeq = 0;
            if (ok) {
                ByteBuffer h = ByteBuffer.wrap(data, offset, HEADER);
                length = h.getInt();
                int crc = h.getInt();
                journalSeq = h.getLong();
                ok = length >= 0 && length <= data.length - offset - HEADER;
                if (ok) {
                    CRC32C check = new CRC32C();
                    check.update(data, offset + 8, 8 + length);
                    ok = (int) check.getValue() == crc;
                }
            }
            // A torn tail (crash inside a write) and records whose journal entry did not survive
            // are both cut; neither was ever shipped.
            if (!ok || journalSeq > journalThrough) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(offset);
                    ch.force(true);
                }
                lastSequenceOf.put(file, last);
                return true;
            }
            byte[] body = Arrays.copyOfRange(data, offset + HEADER, offset + HEADER + length);
            long sequence = AccountingRecord.parseFrom(body).getSequence();
            if (sequence > acked) {
                pending.add(new Entry(sequence, journalSeq, body));
            }
            last = sequence;
            offset += HEADER + length;
        }
        lastSequenceOf.put(file, last);
        return false;
    }

    /** Buffers a record derived from journal entry {@code journalSequence}; loop thread only. */
    public void append(long journalSequence, AccountingRecord.Builder record) {
        long sequence = nextSequence++;
        byte[] body = record.setSequence(sequence).build().toByteArray();
        byte[] journal = ByteBuffer.allocate(8).putLong(journalSequence).array();
        CRC32C crc = new CRC32C();
        crc.update(journal);
        crc.update(body);
        buffer.writeBytes(ByteBuffer.allocate(8)
                .putInt(body.length)
                .putInt((int) crc.getValue())
                .array());
        buffer.writeBytes(journal);
        buffer.writeBytes(body);
        unsynced.add(new Entry(sequence, journalSequence, body));
    }

    /** Writes and forces what {@link #append} buffered; loop thread, before the journal sync. */
    public void sync() throws IOException {
        if (unsynced.isEmpty()) {
            return;
        }
        synchronized (lock) {
            long start = current.position();
            try {
                ByteBuffer b = ByteBuffer.wrap(buffer.toByteArray());
                while (b.hasRemaining()) {
                    current.write(b);
                }
                current.force(false);
            } catch (IOException e) {
                current.truncate(start);
                current.position(start);
                throw e;
            }
            pending.addAll(unsynced);
            lastSequenceOf.put(currentPath, unsynced.getLast().sequence());
            if (current.size() >= rollBytes) {
                roll();
            }
        }
        unsynced.clear();
        buffer.reset();
    }

    /** The journal is durable through {@code journalSequence}: records up to it may ship. */
    public void published(long journalSequence) {
        synchronized (lock) {
            if (journalSequence > durableJournal) {
                durableJournal = journalSequence;
                lock.notifyAll();
            }
        }
    }

    /** Up to {@code max} shippable records in order; waits up to {@code timeoutMillis} for one. */
    public List<AccountingRecord> awaitBatch(int max, long timeoutMillis) throws InterruptedException {
        List<AccountingRecord> out = new ArrayList<>();
        for (Entry e : awaitEntries(max, timeoutMillis)) {
            try {
                out.add(AccountingRecord.parseFrom(e.body()));
            } catch (InvalidProtocolBufferException x) {
                throw new IllegalStateException("outbox record " + e.sequence() + " unreadable", x);
            }
        }
        return out;
    }

    /** {@link #awaitBatch}'s records as stored, for shipping without serialising them again. */
    List<Entry> awaitEntries(int max, long timeoutMillis) throws InterruptedException {
        synchronized (lock) {
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
            while (!shippable()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return List.of();
                }
                lock.wait(left);
            }
            List<Entry> out = new ArrayList<>();
            long bytes = 0;
            for (Entry e : pending) {
                if (out.size() == max
                        || e.journalSequence() > durableJournal
                        || (!out.isEmpty() && bytes + e.body().length > MAX_BATCH_BYTES)) {
                    break;
                }
                out.add(e);
                bytes += e.body().length;
            }
            return out;
        }
    }

    private boolean shippable() {
        return !pending.isEmpty() && pending.getFirst().journalSequence() <= durableJournal;
    }

    /**
     * sluice-dbd applied everything through {@code sequence}: forget it. Shipper thread only. The
     * mark file is written and old segments deleted outside the lock, so the controller loop's
     * {@link #sync}/{@link #published} never wait on file system calls made for the shipper.
     */
    public void acknowledge(long sequence) throws IOException {
        // Delivered is delivered, whether or not the mark below can be written: were the records
        // kept as pending, the shipper would send them again at once, and again, while the
        // directory stays unwritable (it spun so when a state directory was deleted under a
        // running controller). sluice-dbd applies each sequence once, so a restart that finds
        // an older mark only sends them again.
        List<Path> done = new ArrayList<>();
        synchronized (lock) {
            while (!pending.isEmpty() && pending.getFirst().sequence() <= sequence) {
                pending.removeFirst();
            }
            for (var it = segments.entrySet().iterator(); it.hasNext(); ) {
                Path p = it.next().getValue();
                if (!p.equals(currentPath) && lastSequenceOf.getOrDefault(p, 0L) <= sequence) {
                    done.add(p);
                    lastSequenceOf.remove(p);
                    it.remove();
                }
            }
        }
        Path tmp = dir.resolve(ACKED + ".tmp");
        OwnerOnly.write(tmp, Long.toString(sequence).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Files.move(
                tmp,
                dir.resolve(ACKED),
                java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // Only once the mark is down: a segment gone before it would not be missed, but a
        // restart reading the older mark would look for it.
        for (Path p : done) {
            Files.deleteIfExists(p);
        }
    }

    /** Records not yet acknowledged by sluice-dbd. */
    public int depth() {
        synchronized (lock) {
            return pending.size();
        }
    }

    /** Segment files on disk (for tests and diagnostics). */
    int segmentCount() {
        synchronized (lock) {
            return segments.size();
        }
    }

    private void roll() throws IOException {
        if (current != null) {
            current.close();
        }
        currentPath = dir.resolve(String.format("%s%020d%s", PREFIX, nextSequence, SUFFIX));
        current = FileChannel.open(
                currentPath, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), OwnerOnly.file());
        current.position(current.size());
        segments.put(nextSequence, currentPath);
        lastSequenceOf.put(currentPath, 0L);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot open directories; the new file is still created.
        }
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> name(p).startsWith(PREFIX) && name(p).endsWith(SUFFIX))
                    .sorted()
                    .toList();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            current.close();
        }
    }
}
