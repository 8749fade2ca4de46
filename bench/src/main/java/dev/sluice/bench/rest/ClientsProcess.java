package dev.sluice.bench.rest;

import dev.sluice.bench.daemon.DaemonCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The {@link RestClients} process the benchmark started, commanded through its standard input. */
final class ClientsProcess implements AutoCloseable {
    /** What the clients did since the last mark. */
    record Polls(
            long answered,
            long failed,
            long bytes,
            long connects,
            double seconds,
            double p50Ms,
            double p99Ms,
            double maxMs) {
        double perSecond() {
            return answered / seconds;
        }
    }

    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;

    private ClientsProcess(Process process) {
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ClientsProcess start(
            List<String> prefix, int port, String user, List<String> tokens, RestOptions o, Path dir)
            throws IOException {
        Path tokenFile = dir.resolve("rest-tokens");
        Files.writeString(tokenFile, String.join("\n", tokens) + "\n");
        List<String> command = DaemonCommands.main(
                prefix,
                List.of("-Xmx1g"),
                RestClients.class.getName(),
                List.of(
                        "--port", Integer.toString(port),
                        "--user", user,
                        "--tokens", tokenFile.toString(),
                        "--clients", Integer.toString(o.clients()),
                        "--interval-ms", Integer.toString(o.intervalMs())));
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("rest-clients.log").toFile()))
                .start();
        return new ClientsProcess(p);
    }

    long pid() {
        return process.pid();
    }

    double cpuMillis() throws IOException {
        return process.toHandle()
                        .info()
                        .totalCpuDuration()
                        .orElseThrow(() -> new IOException("no CPU time for the REST clients"))
                        .toNanos()
                / 1e6;
    }

    void poll() throws IOException {
        ask("poll");
    }

    void pause() throws IOException {
        ask("pause");
    }

    void mark() throws IOException {
        ask("mark");
    }

    Polls report() throws IOException {
        Map<String, String> f = new HashMap<>();
        for (String field : ask("report").split(" ")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                f.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        return new Polls(
                Long.parseLong(f.get("answered")),
                Long.parseLong(f.get("failed")),
                Long.parseLong(f.get("bytes")),
                Long.parseLong(f.get("connects")),
                Double.parseDouble(f.get("seconds")),
                Double.parseDouble(f.get("p50_ms")),
                Double.parseDouble(f.get("p99_ms")),
                Double.parseDouble(f.get("max_ms")));
    }

    private String ask(String command) throws IOException {
        commands.write(command + "\n");
        commands.flush();
        String line = answers.readLine();
        if (line == null) {
            throw new IOException("the REST clients exited (see rest-clients.log in the state directory)");
        }
        return line;
    }

    @Override
    public void close() {
        try {
            commands.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
