package dev.sluice.restd.v0038;

import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import java.util.Optional;

/**
 * What slurmrestd 22.05 answers on a v0.0.38 path when the token it passed on is refused
 * (expired, forged, unsigned: compat 276). slurmrestd does not check tokens itself; slurmctld
 * does and closes the connection without a word, and each endpoint words that failure as it
 * words any other: the listings as "Unspecified error" (-1), a cancellation or a submission as
 * zero bytes received, a named job or reservation as not found. Sluice refuses the token before
 * anything is asked and answers the same.
 */
final class Refused38 {
    private static final String UNSPECIFIED = "Unspecified error";

    /**
     * What the controller's closed connection looks like to a call: zero bytes received (a
     * submission), or, to a job update, a message it did not expect (Slurm's 1000).
     */
    static final ControllerSession CLOSED = request -> {
        if (request.hasUpdateJob()) {
            throw new ControllerException(1000, "Unexpected message received");
        }
        throw new ControllerException(ErrorCode.SOCKET_ZERO_BYTES);
    };

    private Refused38() {}

    /** The answer for the route {@code key} (as {@code Endpoints} names it); empty: its handler words it. */
    static Optional<Reply> answer(String key, String arg) {
        Envelope38 out = new Envelope38();
        return Optional.ofNullable(
                switch (key) {
                    case "GET ping" ->
                        out.described("slurmctld config is unable to load", -1, UNSPECIFIED, "slurm_load_ctl_conf")
                                .reply(500);
                    case "GET diag" -> {
                        out.described("request failed", -1, UNSPECIFIED, "slurm_get_statistics");
                        var statistics = out.body().putObject("statistics");
                        statistics.putArray("rpcs_by_message_type");
                        statistics.putArray("rpcs_by_user");
                        yield out.reply(500);
                    }
                    case "GET jobs" -> {
                        out.body().putArray("jobs");
                        yield out.described("Failed while looking for jobs", -1, UNSPECIFIED, "slurm_load_jobs")
                                .reply(500);
                    }
                    case "GET job/*" -> {
                        out.body().putArray("jobs");
                        yield out.described("Unable to find JobId=" + arg, -1, UNSPECIFIED, "slurm_load_job")
                                .reply(500);
                    }
                    case "DELETE job/*" -> {
                        ErrorCode closed = ErrorCode.SOCKET_ZERO_BYTES;
                        yield out.described(
                                        "unable to kill JobId=" + arg + " with signal 9: " + closed.text(),
                                        closed.number(),
                                        closed.text(),
                                        "slurm_kill_job")
                                .reply(500);
                    }
                    case "GET nodes", "GET node/*" -> listing(out, "nodes", -1, UNSPECIFIED);
                    case "GET partitions", "GET partition/*" -> listing(out, "partitions", -1, UNSPECIFIED);
                    case "GET reservations" -> listing(out, "reservations", -1, UNSPECIFIED);
                    // The failed load leaves no reservation to find by that name.
                    case "GET reservation/*" ->
                        listing(
                                out,
                                "reservations",
                                ErrorCode.RESERVATION_INVALID.number(),
                                ErrorCode.RESERVATION_INVALID.text());
                    default -> null;
                });
    }

    private static Reply listing(Envelope38 out, String list, int number, String error) {
        out.body().putArray(list);
        return out.errno(number, error).reply(500);
    }
}
