package dev.sluice.restd.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a request carries besides its path: its JSON body, bounded before it is read (a client
 * cannot make the daemon buffer more than {@link #MAX_BODY_BYTES} whatever its Content-Length
 * claims), and its query string.
 */
final class RequestBody {
    /** Requests larger than this are refused, their bodies neither kept nor parsed. */
    static final int MAX_BODY_BYTES = 1024 * 1024;

    /**
     * How much of a refused body is read and dropped before the refusal is sent. A client still
     * sending its body to a server that has closed the connection gets a reset, which can throw
     * away the refusal before the client reads it (the 413 arrived as "no bytes" now and then);
     * beyond this much the connection is closed anyway.
     */
    static final long DISCARD_BYTES = 16L * 1024 * 1024;

    // A duplicate key or trailing garbage is a malformed request, not one to guess at.
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private RequestBody() {}

    /** Empty for no body; at most {@link #MAX_BODY_BYTES} are read whatever the length claims. */
    static Optional<JsonNode> read(Exchange ex) throws IOException, TooLarge {
        String length = ex.getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > MAX_BODY_BYTES) {
                    throw discarding(ex.body());
                }
            } catch (NumberFormatException e) {
                throw discarding(ex.body());
            }
        }
        byte[] bytes;
        try (InputStream in = ex.body()) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw discarding(in);
            }
        }
        if (bytes.length == 0) {
            return Optional.empty();
        }
        JsonNode node = JSON.readTree(bytes);
        return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
    }

    /**
     * The query's parameters, decoded, in the query's order (slurmrestd reads some fields in
     * that order: compat 180); a parameter given twice keeps its last value.
     */
    static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(
                    URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length == 2 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    /** Reads and drops up to {@link #DISCARD_BYTES} of what is left of {@code in}: see there. */
    private static TooLarge discarding(InputStream in) throws IOException {
        byte[] sink = new byte[64 * 1024];
        long left = DISCARD_BYTES;
        for (int n; left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) > 0; ) {
            left -= n;
        }
        return new TooLarge();
    }

    /** The body is over {@link #MAX_BODY_BYTES}, or its length unreadable. */
    static final class TooLarge extends Exception {
        TooLarge() {
            super(null, null, false, false);
        }
    }
}
