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
 * {@code writeDelimitedTo}). Frames larger than {@link #MAX_FRAME_BYTES} are refused before
 * any allocation, so a hostile length prefix cannot exhaust memory.
 */
public final class Frames {
    /** Current protocol version carried in every envelope; see docs/protocol.md. */
    public static final int PROTOCOL_VERSION = 1;

    /** Upper bound of one frame (a batch script and its environment fit well inside). */
    public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;

    private Frames() {}

    public static void write(MessageLite message, OutputStream out) throws IOException {
        int size = message.getSerializedSize();
        if (size > MAX_FRAME_BYTES) {
            throw new IOException("frame of " + size + " bytes exceeds the limit of " + MAX_FRAME_BYTES);
        }
        CodedOutputStream coded = CodedOutputStream.newInstance(out, 8192);
        coded.writeUInt32NoTag(size);
        message.writeTo(coded);
        coded.flush();
        out.flush();
    }

    /** Reads one frame; {@link EOFException} when the stream ends before a frame starts. */
    public static <T> T read(Parser<T> parser, InputStream in) throws IOException {
        int first = in.read();
        if (first == -1) {
            throw new EOFException("connection closed");
        }
        int size = CodedInputStream.readRawVarint32(first, in);
        if (size < 0 || size > MAX_FRAME_BYTES) {
            throw new IOException("frame length " + size + " outside 0.." + MAX_FRAME_BYTES);
        }
        byte[] body = in.readNBytes(size);
        if (body.length != size) {
            throw new EOFException("connection closed inside a frame");
        }
        return parser.parseFrom(body);
    }
}
