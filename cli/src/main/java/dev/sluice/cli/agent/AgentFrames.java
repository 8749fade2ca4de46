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
 * agent sends {@link #WANT_STDIN}, so a command that never reads it leaves it to the shell. Deliberately trivial so that the C front end
 * stays a few hundred lines; nothing in it names a user, because the agent never asks.
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
        int type = in.read();
        if (type < 0) {
            throw new EOFException("peer closed");
        }
        int length = in.readInt();
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("frame of " + length + " bytes exceeds the limit of " + MAX_FRAME);
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
