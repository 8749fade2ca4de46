package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.StdinMode;
import dev.sluice.protocol.v1.StepIo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Where srun's standard input goes (-i) and how it reaches the nodes (compat 280). */
class TestStepInput {
    private static final InputStream NOTHING = InputStream.nullInputStream();

    @Test
    void everyTaskByDefaultOneWithANumberNoneOtherwise() {
        assertThat(StepInput.of(null, NOTHING).mode()).isEqualTo(StdinMode.STDIN_ALL);
        assertThat(StepInput.of("all", NOTHING).mode()).isEqualTo(StdinMode.STDIN_ALL);
        StepInput one = StepInput.of("1", NOTHING);
        assertThat(one.mode()).isEqualTo(StdinMode.STDIN_TASK);
        assertThat(one.task()).isEqualTo(1);
        assertThat(one.reaches(List.of(0))).isFalse();
        assertThat(one.reaches(List.of(1, 2))).isTrue();
        // none, and a file the tasks open on their nodes (InputRedirect).
        assertThat(StepInput.of("none", NOTHING).forwards()).isFalse();
        assertThat(StepInput.of("in-%t.txt", NOTHING).forwards()).isFalse();
    }

    /** Two nodes' ends of the I/O socket; what srun sent each, as text, once it said the end. */
    @Test
    void theInputGoesToTheNodesWhoseTasksReadItThenItsEnd() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
                Socket node0 = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket srunSide0 = server.accept();
                Socket node1 = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket srunSide1 = server.accept()) {
            Map<Socket, List<Integer>> tasksOf = new ConcurrentHashMap<>();
            tasksOf.put(srunSide0, List.of(0, 1));
            tasksOf.put(srunSide1, List.of(2));
            StepInput input = new StepInput(
                    new ByteArrayInputStream("line\n".getBytes(StandardCharsets.UTF_8)), StdinMode.STDIN_TASK, 2);

            input.pump(tasksOf, new CountDownLatch(0));

            node0.shutdownOutput();
            srunSide0.close();
            assertThat(received(node1)).isEqualTo("line\n<eof>");
            assertThat(received(node0)).isEmpty();
        }
    }

    private static String received(Socket node) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        InputStream in = node.getInputStream();
        while (true) {
            StepIo frame;
            try {
                frame = Frames.read(StepIo.parser(), in);
            } catch (java.io.IOException end) {
                return text.toString(StandardCharsets.UTF_8);
            }
            text.writeBytes(frame.getInput().getData().toByteArray());
            if (frame.getInput().getEof()) {
                text.writeBytes("<eof>".getBytes(StandardCharsets.UTF_8));
                return text.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
