package dev.sluice.cli.agent;

import dev.sluice.common.text.RawText;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The front end ↔ agent stream: frames of {@code [u8 type][u32 big-endian length][payload]}.
 * The front end sends one {@link #RUN} frame, then {@link #STDIN} frames (an empty one is end
 * of input) and {@link #SIGNAL} frames; the agent answers with {@link #STDOUT}/{@link #STDERR}
 * frames and one {@link #EXIT} frame, then closes. Standard input is forwarded only after the
 * agent sends {@link #WANT_STDIN}, so a command that never reads it leaves it to the shell.
 *
 * <p>Everything that needs the caller's rights is done by the front end, which is the caller's
 * own process: the agent sends a {@link #FILE} or {@link #PROCESS} request and waits for one
 * {@link #ANSWER}; or it sends {@link #FALLBACK} first, when it will not serve this call at all
 * (another slurm.conf than its own, or one the caller may not read), and the front end runs the
 * command in a JVM of its own instead. Deliberately trivial so that the C front end stays a few
 * hundred lines; nothing in it names a user, because the agent never asks.
 */
public final class AgentFrames {
    public static final int RUN = 'R';
    public static final int STDIN = 'I';
    public static final int SIGNAL = 'S';
    public static final int STDOUT = 'O';
    public static final int STDERR = 'E';
    public static final int EXIT = 'X';
    /** The command has started reading standard input: the front end may now forward it. */
    public static final int WANT_STDIN = 'W';
    /** Agent → front end: open a file as the caller; {@code u8 op, string path, op's operands}. */
    public static final int FILE = 'F';
    /** Agent → front end: run a program as the caller, on its terminal; payload as {@link #RUN}'s. */
    public static final int PROCESS = 'P';
    /** Front end → agent: {@code u32 errno}, then the file's bytes or {@code u32} wait status. */
    public static final int ANSWER = 'A';
    /** Agent → front end, before anything else: run the command yourself; the agent then closes. */
    public static final int FALLBACK = 'J';

    /** {@link #FILE} operations. */
    public static final int OP_READ = 'r';

    public static final int OP_WRITE = 'w';
    public static final int OP_APPEND = 'a';
    public static final int OP_CHECK_READABLE = 'o';

    /** Bounds a malicious or broken client cannot push the agent past. */
    public static final int MAX_FRAME = 4 << 20;

    public static final int MAX_STRINGS = 65_536;

    private AgentFrames() {}

    /** What the front end asks to run: argv[0] is the command name, env is its environment. */
    public record Run(List<String> argv, Map<String, String> env, String cwd) {
        public Run {
            argv = List.copyOf(argv);
            env = Map.copyOf(env);
        }
    }

    public record Frame(int type, byte[] payload) {}

    /** Reads one frame; {@link EOFException} when the peer closed between frames. */
    public static Frame read(DataInputStream in) throws IOException {
        return read(in, type -> MAX_FRAME);
    }

    /**
     * Reads one frame, refusing before it allocates anything one longer than {@code limit}
     * allows for its type (an answer may carry a whole file, but only when one was asked for).
     */
    public static Frame read(DataInputStream in, java.util.function.IntUnaryOperator limit) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("peer closed");
        }
        int length = in.readInt();
        int max = limit.applyAsInt(type);
        if (length < 0 || length > max) {
            throw new IOException("frame of " + length + " bytes exceeds the limit of " + max);
        }
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(type, payload);
    }

    public static void write(DataOutputStream out, int type, byte[] payload, int offset, int length)
            throws IOException {
        out.write(type);
        out.writeInt(length);
        out.write(payload, offset, length);
    }

    public static byte[] exitPayload(int code) {
        return new byte[] {(byte) (code >>> 24), (byte) (code >>> 16), (byte) (code >>> 8), (byte) code};
    }

    public static int intOf(byte[] payload) throws IOException {
        if (payload.length != 4) {
            throw new IOException("expected a 4-byte number, got " + payload.length + " bytes");
        }
        return ((payload[0] & 0xff) << 24)
                | ((payload[1] & 0xff) << 16)
                | ((payload[2] & 0xff) << 8)
                | (payload[3] & 0xff);
    }

    /**
     * Decodes a {@link #RUN} payload: {@code u32 argc, argc × string, u32 envc, envc × "K=V",
     * string cwd}, each string {@code u32 length + bytes}: argv and the environment as the
     * front end found them (any bytes), the directory in UTF-8.
     */
    public static Run decodeRun(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload));
        try {
            List<String> argv = rawStrings(in);
            if (argv.isEmpty()) {
                throw new IOException("no command named");
            }
            Map<String, String> env = new LinkedHashMap<>();
            for (String entry : rawStrings(in)) {
                int eq = entry.indexOf('=');
                if (eq > 0) {
                    env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
                }
            }
            String cwd = string(in);
            if (in.available() > 0) {
                throw new IOException("trailing bytes after the working directory");
            }
            return new Run(argv, env, cwd);
        } catch (EOFException e) {
            throw new IOException("truncated run request", e);
        }
    }

    /** A {@link #FILE} request. */
    public static byte[] fileRequest(int op, String path, byte[] operand) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.write(op);
            writeString(out, path);
            out.write(operand);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A {@link #FILE} request as the front end decodes it. */
    public record FileRequest(int op, String path, byte[] operand) {}

    public static FileRequest decodeFileRequest(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload));
        try {
            int op = in.readUnsignedByte();
            String path = string(in);
            return new FileRequest(op, path, in.readAllBytes());
        } catch (EOFException e) {
            throw new IOException("truncated file request", e);
        }
    }

    /** An {@link #ANSWER}: the errno (0 for success) and what follows it. */
    public static byte[] answer(int errno, byte[] data) {
        byte[] out = new byte[4 + data.length];
        System.arraycopy(exitPayload(errno), 0, out, 0, 4);
        System.arraycopy(data, 0, out, 4, data.length);
        return out;
    }

    public static byte[] encodeRun(Run run) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(run.argv().size());
        for (String a : run.argv()) {
            writeBytes(out, RawText.encode(a));
        }
        out.writeInt(run.env().size());
        for (Map.Entry<String, String> e : run.env().entrySet()) {
            writeBytes(out, RawText.encode(e.getKey() + "=" + e.getValue()));
        }
        writeString(out, run.cwd());
        return bytes.toByteArray();
    }

    /** Arguments and environment entries keep every byte, as {@link RawText} (see cli.RawProcess). */
    private static List<String> rawStrings(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > MAX_STRINGS) {
            throw new IOException("string count " + count + " out of range");
        }
        List<String> out = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            out.add(RawText.decode(bytes(in)));
        }
        return out;
    }

    /** The working directory becomes a Path, which only takes text. */
    private static String string(DataInputStream in) throws IOException {
        return new String(bytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("string length " + length + " runs past the frame");
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }
}
