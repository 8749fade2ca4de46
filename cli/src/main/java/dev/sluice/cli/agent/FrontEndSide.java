package dev.sluice.cli.agent;

import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.CallerSide;
import dev.sluice.cli.caller.Errno;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The caller's side of an agent call: each operation is a request to the caller's native front
 * end, which does it in its own process, with the caller's uid, gids and umask, and answers
 * with the errno it met. The agent itself never opens a path a caller named, so it cannot lend
 * its rights (root's) to anyone.
 */
final class FrontEndSide implements CallerSide {
    /** One request to the front end and its answer's payload. */
    interface Conversation {
        byte[] ask(int type, byte[] payload, int maxAnswer) throws IOException, InterruptedException;
    }

    private final Conversation frontEnd;
    private final Runnable beforeSideEffect;

    /**
     * @param beforeSideEffect run before a write or a program: sends what the command wrote so
     *     far (the terminal is handed over) and marks the call as past the point where the
     *     caller could still run it afresh in a JVM of its own
     */
    FrontEndSide(Conversation frontEnd, Runnable beforeSideEffect) {
        this.frontEnd = frontEnd;
        this.beforeSideEffect = beforeSideEffect;
    }

    @Override
    public byte[] read(String path, int limit) throws CallerFileException {
        byte[] answer = file(AgentFrames.OP_READ, path, AgentFrames.exitPayload(limit), limit);
        return java.util.Arrays.copyOfRange(answer, 4, answer.length);
    }

    @Override
    public void write(String path, byte[] data, boolean append) throws CallerFileException {
        beforeSideEffect.run();
        file(append ? AgentFrames.OP_APPEND : AgentFrames.OP_WRITE, path, data, 0);
    }

    @Override
    public void checkReadable(String path) throws CallerFileException {
        file(AgentFrames.OP_CHECK_READABLE, path, new byte[0], 0);
    }

    private byte[] file(int op, String path, byte[] operand, int dataLimit) throws CallerFileException {
        byte[] answer;
        try {
            answer = frontEnd.ask(AgentFrames.FILE, AgentFrames.fileRequest(op, path, operand), 4 + dataLimit);
        } catch (IOException e) {
            throw new CallerFileException(path, Errno.EIO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallerFileException(path, Errno.EIO);
        }
        int errno = errnoOf(answer);
        if (errno != 0) {
            throw new CallerFileException(path, new Errno(errno));
        }
        if (dataLimit == 0 && answer.length != 4) {
            throw new CallerFileException(path, Errno.EIO);
        }
        return answer;
    }

    @Override
    public int run(List<String> argv, Map<String, String> env, String cwd) throws IOException, InterruptedException {
        beforeSideEffect.run();
        byte[] answer =
                frontEnd.ask(AgentFrames.PROCESS, AgentFrames.encodeRun(new AgentFrames.Run(argv, env, cwd)), 8);
        int errno = errnoOf(answer);
        if (errno != 0) {
            // The words the JDK uses for the same failure, so both paths print alike.
            throw new IOException("Cannot run program \"" + argv.getFirst() + "\" (in directory \"" + cwd
                    + "\"): error=" + errno + ", " + new Errno(errno).text());
        }
        if (answer.length != 8) {
            throw new IOException("malformed answer from the front end");
        }
        return AgentFrames.intOf(java.util.Arrays.copyOfRange(answer, 4, 8));
    }

    private static int errnoOf(byte[] answer) throws CallerFileException {
        if (answer.length < 4) {
            throw new CallerFileException("(answer)", Errno.EIO);
        }
        return ((answer[0] & 0xff) << 24) | ((answer[1] & 0xff) << 16) | ((answer[2] & 0xff) << 8) | (answer[3] & 0xff);
    }
}
