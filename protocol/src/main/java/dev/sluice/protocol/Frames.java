package dev.sluice.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Length-delimited framing of the command socket: each frame is a base-128 varint length
 * followed by that many bytes of one protobuf message (the same framing as protobuf's
 * {@code writeDelimitedTo}). A server refuses requests larger than {@link #MAX_FRAME_BYTES} before
 * any allocation, so a hostile length prefix cannot exhaust its memory; a client accepts answers
 * up to {@link #MAX_ANSWER_BYTES} from the daemon it asked.
 */
public final class Frames {
    /** Current protocol version carried in every envelope; see docs/protocol.md. */
    public static final int PROTOCOL_VERSION = 1;

    /** Upper bound of a request (a batch script and its environment fit well inside). */
    public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;

    /**
     * Upper bound of an answer, as Slurm's own messages (1 GiB): the job list of a queue 100,000
     * deep is about 17 MiB, and squeue must be able to show it.
     */
    public static final int MAX_ANSWER_BYTES = 1024 * 1024 * 1024;

    private Frames() {}

    /** Writes a request (at most {@link #MAX_FRAME_BYTES}). */
    public static void write(MessageLite message, OutputStream out) throws IOException {
        write(message, out, MAX_FRAME_BYTES);
    }

    /** Writes a daemon's answer (at most {@link #MAX_ANSWER_BYTES}). */
    public static void writeAnswer(MessageLite message, OutputStream out) throws IOException {
        write(message, out, MAX_ANSWER_BYTES);
    }

    private static void write(MessageLite message, OutputStream out, int limit) throws IOException {
        int size = message.getSerializedSize();
        if (size > limit) {
            throw new IOException("frame of " + size + " bytes exceeds the limit of " + limit);
        }
        CodedOutputStream coded = CodedOutputStream.newInstance(out, 8192);
        coded.writeUInt32NoTag(size);
        message.writeTo(coded);
        coded.flush();
        out.flush();
    }

    /**
     * Reads one request (at most {@link #MAX_FRAME_BYTES}); {@link EOFException} when the stream
     * ends before a frame starts.
     */
    public static <T> T read(Parser<T> parser, InputStream in) throws IOException {
        return read(parser, in, MAX_FRAME_BYTES);
    }

    /** Reads the answer of the daemon a client asked (at most {@link #MAX_ANSWER_BYTES}). */
    public static <T> T readAnswer(Parser<T> parser, InputStream in) throws IOException {
        return read(parser, in, MAX_ANSWER_BYTES);
    }

    private static <T> T read(Parser<T> parser, InputStream in, int limit) throws IOException {
        int first = in.read();
        if (first == -1) {
            throw new EOFException("connection closed");
        }
        int size = CodedInputStream.readRawVarint32(first, in);
        if (size < 0 || size > limit) {
            throw new IOException("frame length " + size + " outside 0.." + limit);
        }
        byte[] body = in.readNBytes(size);
        if (body.length != size) {
            throw new EOFException("connection closed inside a frame");
        }
        return parser.parseFrom(body);
    }
}
