package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.ByteString;
import dev.sluice.cli.Caller;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.protocol.v1.SignedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a command proves who runs it (docs/security.md), picked in this order: the controller's
 * Unix socket when it is on this host (the kernel vouches for the caller; nothing is signed);
 * the cluster key when this user can read it (root, SlurmUser), signing a credential bound to
 * each request; a {@code SLURM_JWT} token from the environment. With none of them the request
 * goes out bare and the daemon refuses it.
 */
public final class ClientAuth {
    private final Optional<Path> localSocket;
    private final Optional<ClusterCredentials> signer;
    private final Principal principal;
    private final Optional<String> userToken;
    private final String tokenUser;
    private final Clock clock;

    ClientAuth(
            Optional<Path> localSocket,
            Optional<ClusterCredentials> signer,
            Principal principal,
            Optional<String> userToken,
            Clock clock) {
        this(localSocket, signer, principal, userToken, "", clock);
    }

    private ClientAuth(
            Optional<Path> localSocket,
            Optional<ClusterCredentials> signer,
            Principal principal,
            Optional<String> userToken,
            String tokenUser,
            Clock clock) {
        this.localSocket = requireNonNull(localSocket, "localSocket is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.principal = requireNonNull(principal, "principal is null");
        this.userToken = requireNonNull(userToken, "userToken is null");
        this.tokenUser = requireNonNull(tokenUser, "tokenUser is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * The same proof, its token sent to speak for {@code userName} (slurmrestd's
     * {@code X-SLURM-USER-NAME}): the daemons allow it for root's and SlurmUser's tokens only
     * and refuse the request otherwise, unless the name is the token's own.
     */
    public ClientAuth speakingFor(String userName) {
        return new ClientAuth(localSocket, signer, principal, userToken, userName, clock);
    }

    /** Nothing to prove identity with: only a daemon that asks nothing (a test stand-in) answers. */
    public static ClientAuth none(Caller caller) {
        return new ClientAuth(
                Optional.empty(), Optional.empty(), principal(caller), Optional.empty(), Clock.systemUTC());
    }

    /**
     * What this caller has: the socket named by sluice.conf's {@code CommandSocket} (default
     * {@code slurmctld.socket} in StateSaveLocation), the key beside slurm.conf, {@code SLURM_JWT}.
     */
    public static ClientAuth discover(
            Map<String, String> env, Path slurmConfPath, SlurmConf conf, Caller caller, Clock clock) {
        return discover(env, slurmConfPath, conf, caller, clock, false);
    }

    /**
     * @param onBehalf the caller is vouched for by sluice-agent (root), not this process: the
     *     local socket would name the agent, so only a credential signed for the caller will do
     */
    public static ClientAuth discover(
            Map<String, String> env, Path slurmConfPath, SlurmConf conf, Caller caller, Clock clock, boolean onBehalf) {
        return forCaller(
                ClusterAccess.besides(slurmConfPath, conf, List.of(slurmConfPath), List.of(slurmConfPath)),
                env,
                caller,
                clock,
                onBehalf);
    }

    /**
     * This caller's proof, from what the cluster's files give ({@code access}, possibly shared
     * by many callers) and what is the caller's own ({@code SLURM_JWT}).
     *
     * @param onBehalf the caller is vouched for by sluice-agent (root), not this process: the
     *     local socket would name the agent, so only a credential signed for the caller will do
     */
    public static ClientAuth forCaller(
            ClusterAccess access, Map<String, String> env, Caller caller, Clock clock, boolean onBehalf) {
        Path socket = access.commandSocket();
        Optional<Path> local = !onBehalf && Files.exists(socket) ? Optional.of(socket) : Optional.empty();
        Optional<String> token =
                Optional.ofNullable(env.get("SLURM_JWT")).map(String::strip).filter(t -> !t.isEmpty());
        // Credentials are about real time: a command's own clock may be a test's fixed one.
        return new ClientAuth(local, access.signer(), principal(caller), token, clock);
    }

    private static Principal principal(Caller caller) {
        return new Principal(caller.uid(), caller.gid(), caller.userName(), List.of(), caller.host());
    }

    /**
     * Whether the controller will know the caller as the identity written in its request: a
     * credential signed for that identity, the socket's peer (the caller itself), or no proof —
     * not a {@code SLURM_JWT} of the caller's own, which may name someone else.
     */
    public boolean provesRequestIdentity() {
        return signer.isPresent() || userToken.isEmpty();
    }

    /** The controller's Unix socket, when it is on this host. */
    public Optional<Path> localSocket() {
        return localSocket;
    }

    /** The envelope for the network: a fresh credential bound to {@code request}, or the token. */
    public SignedRequest forNetwork(byte[] request, String audience) {
        SignedRequest.Builder out = SignedRequest.newBuilder().setRequest(ByteString.copyFrom(request));
        if (signer.isPresent()) {
            out.setCredential(
                    signer.get().issue(principal, audience, request, clock.instant(), ClusterCredentials.DEFAULT_TTL));
        } else {
            userToken.ifPresent(out::setUserToken);
            if (userToken.isPresent() && !tokenUser.isEmpty()) {
                out.setTokenUser(tokenUser);
            }
        }
        return out.build();
    }

    /** The envelope for the Unix socket: the peer's credentials are the proof. */
    public static SignedRequest forLocal(byte[] request) {
        return SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(request))
                .build();
    }
}
