package dev.sluice.restd.slurm;

import dev.sluice.restd.http.RestErrors;

/** A request refused before the controller is asked: the daemon answers it with {@code kind}. */
final class BadRequest extends Exception {
    final RestErrors kind;

    BadRequest(RestErrors kind, String message) {
        super(message);
        this.kind = kind;
    }
}
