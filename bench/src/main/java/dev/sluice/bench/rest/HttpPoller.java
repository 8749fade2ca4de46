package dev.sluice.bench.rest;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One REST client's own HTTP/1.1 connection, kept alive between its polls as a dashboard's
 * is: a GET with the token headers of Slurm's rest_auth/jwt, the answer read whole (its length
 * from {@code Content-Length}, which sluice-restd always sends) and thrown away. A connection
 * the server closed while the client was idle is opened again and the request sent once more;
 * a blocking socket on a virtual thread, since the JDK's HttpClient shares connections between
 * its callers and the benchmark wants one per client.
 */
final class HttpPoller implements AutoCloseable {
    /** What one poll got: the HTTP status, the body's length, the connections opened for it. */
    record Answer(int status, long bytes, int connects) {}

    private final InetSocketAddress address;
    private final byte[] request;
    private final byte[] sink = new byte[64 * 1024];
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    HttpPoller(String host, int port, String path, String user, String token) {
        this.address = new InetSocketAddress(host, port);
        this.request = ("GET " + path + " HTTP/1.1\r\n"
                        + "Host: " + host + ":" + port + "\r\n"
                        + "Accept: application/json\r\n"
                        + "X-SLURM-USER-NAME: " + user + "\r\n"
                        + "X-SLURM-USER-TOKEN: " + token + "\r\n"
                        + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** One poll over this client's connection, opening it first where there is none. */
    Answer get() throws IOException {
        int connects = 0;
        boolean reused = socket != null;
        if (!reused) {
            connect();
            connects++;
        }
        try {
            return read(connects);
        } catch (IOException e) {
            if (!reused) {
                throw e;
            }
            // The server closed the idle connection (Jetty's idle timeout): once more, anew.
            close();
            connect();
            return read(connects + 1);
        }
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(address, 10_000);
        s.setSoTimeout(120_000);
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        out = s.getOutputStream();
    }

    private Answer read(int connects) throws IOException {
        out.write(request);
        out.flush();
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before an answer");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP answer: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        long length = -1;
        boolean closes = false;
        String header;
        while ((header = line()) != null && !header.isEmpty()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).strip();
            if (name.equals("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                closes = true;
            }
        }
        if (header == null) {
            throw new IOException("connection closed in the headers");
        }
        if (length < 0) {
            throw new IOException("an answer without Content-Length");
        }
        long left = length;
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new IOException("connection closed in the body");
            }
            left -= n;
        }
        if (closes) {
            close();
        }
        return new Answer(status, length, connects);
    }

    /** A header line without its CRLF; null at the end of the stream. */
    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = b.length();
                if (len > 0 && b.charAt(len - 1) == '\r') {
                    b.setLength(len - 1);
                }
                return b.toString();
            }
            b.append((char) c);
        }
        return b.isEmpty() ? null : b.toString();
    }

    @Override
    public void close() {
        Socket s = socket;
        socket = null;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing a connection the server already dropped: nothing is lost.
            }
        }
    }
}
