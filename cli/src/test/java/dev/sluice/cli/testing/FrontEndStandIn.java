package dev.sluice.cli.testing;

import dev.sluice.cli.agent.AgentFrames;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.LocalCallerSide;
import java.io.IOException;
import java.nio.file.Path;

/** The native front end's answers to the agent's file and process requests, done in this process. */
final class FrontEndStandIn {
    private FrontEndStandIn() {}

    static byte[] answer(AgentFrames.Frame request, Path cwd) throws IOException {
        LocalCallerSide side = new LocalCallerSide(cwd);
        if (request.type() == AgentFrames.PROCESS) {
            AgentFrames.Run run = AgentFrames.decodeRun(request.payload());
            try {
                return AgentFrames.answer(0, AgentFrames.exitPayload(side.run(run.argv(), run.env(), run.cwd())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            } catch (IOException e) {
                return AgentFrames.answer(2, new byte[0]);
            }
        }
        AgentFrames.FileRequest f = AgentFrames.decodeFileRequest(request.payload());
        try {
            return switch (f.op()) {
                case AgentFrames.OP_READ -> AgentFrames.answer(0, side.read(f.path(), AgentFrames.intOf(f.operand())));
                case AgentFrames.OP_WRITE, AgentFrames.OP_APPEND -> {
                    side.write(f.path(), f.operand(), f.op() == AgentFrames.OP_APPEND);
                    yield AgentFrames.answer(0, new byte[0]);
                }
                case AgentFrames.OP_CHECK_READABLE -> {
                    side.checkReadable(f.path());
                    yield AgentFrames.answer(0, new byte[0]);
                }
                default -> AgentFrames.answer(22, new byte[0]);
            };
        } catch (CallerFileException e) {
            return AgentFrames.answer(e.errno().number(), new byte[0]);
        }
    }
}
