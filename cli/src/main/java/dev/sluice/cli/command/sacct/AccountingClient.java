package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ClientAuth;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobQuery;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Asks sluice-dbd, at {@code AccountingStorageHost}:{@code AccountingStoragePort} of the
 * caller's slurm.conf (as Slurm's sacct finds slurmdbd), over the command-socket framing.
 */
public final class AccountingClient {
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final int READ_TIMEOUT_MS = 120_000;
    /** sluice-dbd's name in cluster credentials. */
    private static final String AUDIENCE = "slurmdbd";

    /** A failure with the text sacct prints after {@code sacct: error: }. */
    public static final class AccountingException extends Exception {
        private final int code;

        public AccountingException(String message) {
            this(message, 0);
        }

        /** @param code the daemon's Slurm error number; 0 when it did not answer */
        public AccountingException(String message, int code) {
            super(message);
            this.code = code;
        }

        /** The daemon's Slurm error number (2002 for a change it refused); 0 when it did not answer. */
        public int code() {
            return code;
        }
    }

    private final String host;
    private final int port;
    private final Caller caller;
    private final ClientAuth auth;

    AccountingClient(String host, int port, Caller caller, ClientAuth auth) {
        this.host = requireNonNull(host, "host is null");
        this.port = port;
        this.caller = requireNonNull(caller, "caller is null");
        this.auth = requireNonNull(auth, "auth is null");
    }

    /**
     * Empty when slurm.conf does not store accounting through a dbd.
     *
     * @param auth what signs the requests (sluice-dbd has no local socket: the key or SLURM_JWT)
     */
    public static Optional<AccountingClient> of(SlurmConf conf, Caller caller, ClientAuth auth) {
        String type = conf.accountingStorageType().orElse("accounting_storage/none");
        if (!type.toLowerCase(Locale.ROOT).equals("accounting_storage/slurmdbd")) {
            return Optional.empty();
        }
        String host = conf.accountingStorageHost().orElse("localhost");
        return Optional.of(new AccountingClient(host, conf.accountingStoragePort(), caller, auth));
    }

    List<AccountedJob> jobs(JobQuery query) throws AccountingException {
        return call(DbdRequest.newBuilder().setQueryJobs(query)).getJobs().getJobsList();
    }

    /** Sends one request (envelope filled in here) and returns the answer, or its error. */
    public DbdResponse call(DbdRequest.Builder body) throws AccountingException {
        DbdRequest request = body.setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(1)
                .setIdentity(Identity.newBuilder()
                        .setUid((int) caller.uid())
                        .setGid((int) caller.gid())
                        .setUserName(caller.userName())
                        .setHost(caller.host()))
                .build();
        DbdResponse response;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            s.setSoTimeout(READ_TIMEOUT_MS);
            s.setTcpNoDelay(true);
            Frames.write(
                    auth.forNetwork(request.toByteArray(), AUDIENCE), new BufferedOutputStream(s.getOutputStream()));
            response = Frames.readAnswer(DbdResponse.parser(), new BufferedInputStream(s.getInputStream()));
        } catch (IOException e) {
            String why = e instanceof java.net.ConnectException ? "Connection refused" : e.getMessage();
            throw new AccountingException("Problem talking to the database: " + why);
        }
        if (response.hasError() && response.getError().getCode() != 0) {
            throw new AccountingException(
                    response.getError().getMessage(), response.getError().getCode());
        }
        return response;
    }
}
