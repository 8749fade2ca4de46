package dev.sluice.ctld.persistence;

import dev.sluice.common.files.OwnerOnly;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import dev.sluice.protocol.v1.journal.StateSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The controller's write-ahead journal in StateSaveLocation: segment files of framed entries
 * ({@code [u32 length][u32 crc32c][JournalEntry]}) plus one snapshot. Appends are buffered and
 * made durable together by {@link #sync} (group commit); the controller answers a request only
 * after the sync that covers its records.
 *
 * <p>Recovery reads the snapshot, then every segment. A final record cut short by a crash is
 * dropped and the file truncated there; damage anywhere else stops start-up with the file and
 * offset, unless the operator asks to truncate at the damage.
 *
 * <p>Not thread-safe: used only by the controller thread.
 */
public final class Journal implements AutoCloseable {
    private static final String SNAPSHOT = "snapshot";
    private static final String PREFIX = "journal-";
    private static final String SUFFIX = ".log";
    private static final int HEADER = 8;
    private static final int PROBE_BYTES = 1 << 20;

    private final Path dir;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private FileChannel segment;
    private long entriesInSegment;

    private Journal(Path dir, FileChannel segment) {
        this.dir = dir;
        this.segment = segment;
    }

    /** What recovery found: the snapshot (may be empty) and the entries written after it. */
    public record Recovered(Journal journal, StateSnapshot snapshot, List<JournalEntry> entries) {}

    public static Recovered open(Path dir, boolean truncateCorrupt) throws IOException {
        // StateSaveLocation may hold the command socket every user connects to (its default
        // place): a directory this creates is 0755, and what is secret in it is 0600 below.
        dev.sluice.common.files.PublicDirectories.create(dir);
        StateSnapshot snapshot = StateSnapshot.getDefaultInstance();
        Path snap = dir.resolve(SNAPSHOT);
        if (Files.exists(snap)) {
            try {
                snapshot = StateSnapshot.parseFrom(Files.readAllBytes(snap));
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                // Snapshots are written to a temporary file and renamed, so a crash cannot tear
                // one: damage here is the disk's or an operator's, and guessing would lose state.
                throw new IOException(
                        snap + ": unreadable snapshot (" + e.getMessage()
                                + "); restore it from a backup of StateSaveLocation",
                        e);
            }
        }
        List<Path> segments = segments(dir);
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            boolean last = i == segments.size() - 1;
            readSegment(segments.get(i), last || truncateCorrupt, truncateCorrupt, entries);
        }
        long through = snapshot.getThroughSequence();
        entries.removeIf(e -> e.getSequence() <= through);
        Path current = segments.isEmpty() ? dir.resolve(segmentName(through + 1)) : segments.getLast();
        // Jobs' scripts and environments are in here: owner-only, also files an older version
        // left readable.
        for (Path p : segments) {
            Files.setPosixFilePermissions(p, OwnerOnly.FILE_MODE);
        }
        if (Files.exists(snap)) {
            Files.setPosixFilePermissions(snap, OwnerOnly.FILE_MODE);
        }
        FileChannel channel = FileChannel.open(
                current, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), OwnerOnly.file());
        channel.position(channel.size());
        Journal journal = new Journal(dir, channel);
        journal.entriesInSegment = entries.size();
        return new Recovered(journal, snapshot, entries);
    }

    private static void readSegment(
            Path file, boolean tornTailAllowed, boolean truncateCorrupt, List<JournalEntry> into) throws IOException {
        byte[] data = Files.readAllBytes(file);
        int offset = 0;
        while (offset < data.length) {
            String problem = null;
            int length = 0;
            if (data.length - offset < HEADER) {
                problem = "incomplete record header";
            } else {
                ByteBuffer header = ByteBuffer.wrap(data, offset, HEADER);
                length = header.getInt();
                int crc = header.getInt();
                if (length < 0 || length > data.length - offset - HEADER) {
                    problem = "record length " + length + " runs past the end of the file";
                } else {
                    CRC32C check = new CRC32C();
                    check.update(data, offset + HEADER, length);
                    if ((int) check.getValue() != crc) {
                        boolean isLast = offset + HEADER + length == data.length;
                        problem = isLast ? "incomplete final record" : "checksum mismatch";
                        if (!isLast && !truncateCorrupt) {
                            throw new JournalCorruptException(file, offset, problem);
                        }
                    }
                }
            }
            if (problem != null) {
                // A crash tears only the last batch written; a whole record after the damage
                // means the damage is in the middle, and truncating would drop acknowledged work.
                if (!tornTailAllowed || (!truncateCorrupt && completeRecordAfter(data, offset))) {
                    throw new JournalCorruptException(file, offset, problem);
                }
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(offset);
                    ch.force(true);
                }
                return;
            }
            into.add(JournalEntry.parseFrom(ByteBuffer.wrap(data, offset + HEADER, length)));
            offset += HEADER + length;
        }
    }

    private static boolean completeRecordAfter(byte[] data, int damaged) {
        for (int p = damaged + 1; p + HEADER <= data.length; p++) {
            ByteBuffer header = ByteBuffer.wrap(data, p, HEADER);
            int length = header.getInt();
            int crc = header.getInt();
            if (length <= 0 || length > data.length - p - HEADER) {
                continue;
            }
            CRC32C check = new CRC32C();
            check.update(data, p + HEADER, length);
            if ((int) check.getValue() == crc) {
                return true;
            }
        }
        return false;
    }

    /** Buffers one entry; durable only after the next {@link #sync}. */
    public void append(JournalEntry entry) {
        byte[] body = entry.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(body);
        ByteBuffer header = ByteBuffer.allocate(HEADER).putInt(body.length).putInt((int) crc.getValue());
        pending.writeBytes(header.array());
        pending.writeBytes(body);
        entriesInSegment++;
    }

    /** Buffers one record as the entry of {@code sequence}; durable only after the next {@link #sync}. */
    public void append(long sequence, StateRecord record) {
        append(RecordCodec.encode(sequence, record));
    }

    public boolean hasPending() {
        return pending.size() > 0;
    }

    /** Whether entries wait for the next {@link #sync} (one with none writes nothing). */
    public boolean hasUnsynced() {
        return pending.size() > 0;
    }

    /** Writes and forces every buffered entry to disk. */
    public void sync() throws IOException {
        if (pending.size() == 0) {
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(pending.toByteArray());
        long start = segment.position();
        try {
            while (buffer.hasRemaining()) {
                segment.write(buffer);
            }
            segment.force(false);
        } catch (IOException e) {
            // Leave no half-written batch behind: the next sync rewrites it from the same place.
            segment.truncate(start);
            segment.position(start);
            throw e;
        }
        pending.reset();
    }

    /**
     * Whether StateSaveLocation takes writes again after a failure: a scratch file with room
     * for a batch is written, forced and removed.
     */
    public boolean writable() {
        Path probe = dir.resolve(".writable-probe");
        try {
            try (FileChannel ch = FileChannel.open(
                    probe,
                    Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                    OwnerOnly.file())) {
                ByteBuffer room = ByteBuffer.allocate(PROBE_BYTES);
                while (room.hasRemaining()) {
                    ch.write(room);
                }
                ch.force(true);
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // the next probe truncates it
            }
        }
    }

    public long entriesInSegment() {
        return entriesInSegment;
    }

    /**
     * Replaces everything before the snapshot of the state as {@code records} (through
     * {@code throughSequence}): see {@link #compact(StateSnapshot)}.
     */
    public void compact(long throughSequence, int nextJobId, List<StateRecord> records) throws IOException {
        StateSnapshot.Builder snap =
                StateSnapshot.newBuilder().setThroughSequence(throughSequence).setNextJobId(nextJobId);
        for (StateRecord r : records) {
            snap.addEntries(RecordCodec.encode(0, r));
        }
        compact(snap.build());
    }

    /**
     * Replaces everything before the snapshot: writes it atomically, starts a new segment and
     * deletes the old ones. Must be called right after {@link #sync}.
     */
    public void compact(StateSnapshot snapshot) throws IOException {
        sync();
        Path tmp = dir.resolve(SNAPSHOT + ".tmp");
        try (FileChannel ch = FileChannel.open(
                tmp,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                OwnerOnly.file())) {
            ch.write(ByteBuffer.wrap(snapshot.toByteArray()));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(SNAPSHOT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        List<Path> old = segments(dir);
        segment.close();
        segment = FileChannel.open(
                dir.resolve(segmentName(snapshot.getThroughSequence() + 1)),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                OwnerOnly.file());
        segment.position(segment.size());
        entriesInSegment = 0;
        forceDirectory();
        for (Path p : old) {
            if (!p.getFileName().toString().equals(segmentName(snapshot.getThroughSequence() + 1))) {
                Files.deleteIfExists(p);
            }
        }
    }

    private void forceDirectory() {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // Some file systems refuse to open directories; the rename is still ordered there.
        }
    }

    private static String segmentName(long firstSequence) {
        return String.format("%s%020d%s", PREFIX, firstSequence, SUFFIX);
    }

    private static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(PREFIX) && n.endsWith(SUFFIX);
                    })
                    .sorted()
                    .toList();
        }
    }

    @Override
    public void close() throws IOException {
        segment.close();
    }
}
