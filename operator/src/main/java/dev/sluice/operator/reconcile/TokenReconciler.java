package dev.sluice.operator.reconcile;

import dev.sluice.common.auth.UserTokens;
import dev.sluice.operator.crd.Token;
import dev.sluice.operator.crd.TokenStatus;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a user's JWT ({@code auth/jwt}, common's {@link UserTokens}: HS256, user in {@code sun})
 * in a Secret owned by the Token: {@code secretRef}, or {@code <name>-token} under
 * {@code SLURM_JWT}. With {@code refresh} the token is minted again when two thirds of its
 * lifetime (default 30 minutes, as {@code scontrol token}) have passed.
 */
@ControllerConfiguration(name = "token")
public final class TokenReconciler implements Reconciler<Token> {
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|ms|s|m|h)");

    private final Clock clock;
    private final Duration recheck;

    /** @param recheck the longest wait between two looks at a refreshed token (its clock may jump) */
    public TokenReconciler(Clock clock, Duration recheck) {
        this.clock = clock;
        this.recheck = recheck;
    }

    @Override
    public UpdateControl<Token> reconcile(Token token, Context<Token> context) {
        KubernetesClient client = context.getClient();
        String ns = token.getMetadata().getNamespace();
        TokenStatus status = token.getStatus() != null ? token.getStatus() : new TokenStatus();
        token.setStatus(status);
        Long generation = token.getMetadata().getGeneration();
        Instant now = clock.instant();
        var spec = token.getSpec();
        Secret keySecret = client.secrets()
                .inNamespace(ns)
                .withName(spec.jwtHs256KeyRef.getName())
                .get();
        String encoded = keySecret == null || keySecret.getData() == null
                ? null
                : keySecret.getData().get(spec.jwtHs256KeyRef.getKey());
        if (encoded == null) {
            Conditions.set(
                    status.conditions,
                    "Ready",
                    false,
                    "KeyNotFound",
                    "Secret " + spec.jwtHs256KeyRef.getName() + " has no key " + spec.jwtHs256KeyRef.getKey(),
                    generation,
                    now);
            return UpdateControl.patchStatus(token).rescheduleAfter(Duration.ofSeconds(30));
        }
        Duration lifetime = spec.lifetime == null ? UserTokens.DEFAULT_LIFESPAN : duration(spec.lifetime);
        boolean refresh = spec.refresh != null && spec.refresh;
        String secretName = spec.secretRef != null
                ? spec.secretRef.getName()
                : token.getMetadata().getName() + "-token";
        String secretKey = spec.secretRef != null ? spec.secretRef.getKey() : "SLURM_JWT";
        Secret existing = client.secrets().inNamespace(ns).withName(secretName).get();
        Instant issued = status.issuedAt == null ? null : Instant.parse(status.issuedAt);
        Instant renewAt =
                issued == null ? now : issued.plus(lifetime.multipliedBy(2).dividedBy(3));
        boolean present = existing != null
                && existing.getData() != null
                && existing.getData().containsKey(secretKey);
        boolean stale = issued == null
                || (token.getMetadata().getGeneration() != null
                        && !token.getMetadata().getGeneration().equals(status.observedGeneration));
        if (!present || stale || (refresh && !now.isBefore(renewAt))) {
            UserTokens tokens;
            try {
                tokens = new UserTokens(Base64.getDecoder().decode(encoded));
            } catch (IllegalArgumentException e) {
                Conditions.set(status.conditions, "Ready", false, "BadKey", e.getMessage(), generation, now);
                return UpdateControl.patchStatus(token).rescheduleAfter(Duration.ofSeconds(30));
            }
            String jwt = tokens.mint(spec.username, now, lifetime);
            Secret secret = Owners.ownedBy(
                    new SecretBuilder()
                            .withNewMetadata()
                            .withName(secretName)
                            .withNamespace(ns)
                            .endMetadata()
                            .addToData(
                                    secretKey, Base64.getEncoder().encodeToString(jwt.getBytes(StandardCharsets.UTF_8)))
                            .build(),
                    token);
            client.resource(secret).createOr(NonDeletingOperation::update);
            status.issuedAt = now.toString();
            issued = now;
            Events.record(
                    client,
                    clock,
                    token,
                    "Normal",
                    "TokenIssued",
                    "token for " + spec.username + " written to Secret " + secretName + ", valid " + lifetime);
        }
        status.observedGeneration = generation;
        Conditions.set(
                status.conditions, "Ready", true, "Issued", "valid until " + issued.plus(lifetime), generation, now);
        UpdateControl<Token> done = UpdateControl.patchStatus(token);
        if (refresh) {
            Duration wait =
                    Duration.between(now, issued.plus(lifetime.multipliedBy(2).dividedBy(3)));
            return done.rescheduleAfter(
                    wait.isNegative() ? Duration.ofSeconds(1) : wait.compareTo(recheck) > 0 ? recheck : wait);
        }
        return done;
    }

    /** A Kubernetes duration ({@code 1h30m}, {@code 15m}, {@code 90s}); the CRD's pattern admits only these. */
    static Duration duration(String text) {
        Matcher m = PART.matcher(text);
        long nanos = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double n = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos += (long) (n * unit);
            end = m.end();
        }
        if (end != text.length() || end == 0) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        return Duration.ofNanos(nanos);
    }
}
