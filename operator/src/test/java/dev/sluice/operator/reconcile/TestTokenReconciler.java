package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.operator.SluiceOperator;
import dev.sluice.operator.crd.Token;
import dev.sluice.operator.crd.TokenSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Token's Secret holds a JWT the controller's verifier accepts for the user, owned by the
 * Token; with {@code refresh} it is replaced once two thirds of its lifetime have passed.
 */
class TestTokenReconciler {
    private static final byte[] JWT_KEY = new byte[32];

    static {
        Arrays.fill(JWT_KEY, (byte) 7);
    }

    private final AtomicLong now = new AtomicLong(2_000_000_000L);
    private MockApi api;
    private KubernetesClient client;
    private SluiceOperator operator;

    @BeforeEach
    void start() throws Exception {
        api = new MockApi(new byte[64]);
        client = api.client();
        client.resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("sluice-jwt")
                        .withNamespace(MockApi.NS)
                        .endMetadata()
                        .addToData("jwt_hs256.key", Base64.getEncoder().encodeToString(JWT_KEY))
                        .build())
                .create();
        operator = new SluiceOperator(
                client,
                (k, c) -> new FakeCluster(),
                new MutableClock(now::get),
                SluiceOperator.Images.defaults(),
                Optional.empty(),
                Duration.ofMillis(500));
        operator.start();
    }

    @AfterEach
    void stop() {
        operator.close();
        api.close();
    }

    private String jwt() {
        Secret s =
                client.secrets().inNamespace(MockApi.NS).withName("alice-token").get();
        return s == null
                ? null
                : new String(Base64.getDecoder().decode(s.getData().get("SLURM_JWT")), StandardCharsets.UTF_8);
    }

    @Test
    void theSecretHoldsAVerifiableTokenRefreshedBeforeItExpires() throws Exception {
        Token t = new Token();
        t.setMetadata(new ObjectMetaBuilder()
                .withName("alice")
                .withNamespace(MockApi.NS)
                .build());
        t.setSpec(new TokenSpec());
        t.getSpec().username = "alice";
        t.getSpec().jwtHs256KeyRef = new SecretKeySelector("jwt_hs256.key", "sluice-jwt", false);
        t.getSpec().lifetime = "1h30m";
        t.getSpec().refresh = true;
        Token created = client.resource(t).create();

        await().atMost(Duration.ofSeconds(20)).until(() -> jwt() != null);
        String first = jwt();
        UserTokens verifier = new UserTokens(JWT_KEY);
        assertThat(verifier.verify(first, Instant.ofEpochSecond(now.get()))).isEqualTo("alice");
        assertThat(client.secrets()
                        .inNamespace(MockApi.NS)
                        .withName("alice-token")
                        .get()
                        .getMetadata()
                        .getOwnerReferences())
                .singleElement()
                .satisfies(o ->
                        assertThat(o.getUid()).isEqualTo(created.getMetadata().getUid()));
        assertThatThrownBy(() -> verifier.verify(first, Instant.ofEpochSecond(now.get() + 5401)))
                .isInstanceOf(AuthException.class);

        now.addAndGet(3601); // past two thirds of 90 minutes
        await().atMost(Duration.ofSeconds(20)).until(() -> !first.equals(jwt()));
        assertThat(verifier.verify(jwt(), Instant.ofEpochSecond(now.get() + 5000)))
                .isEqualTo("alice");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(client.resources(Token.class)
                                .inNamespace(MockApi.NS)
                                .withName("alice")
                                .get()
                                .getStatus()
                                .issuedAt)
                        .isEqualTo(Instant.ofEpochSecond(now.get()).toString()));
    }

    @Test
    void kubernetesDurationsParse() {
        assertThat(dev.sluice.operator.reconcile.TokenReconciler.duration("1h30m"))
                .isEqualTo(Duration.ofMinutes(90));
        assertThat(dev.sluice.operator.reconcile.TokenReconciler.duration("15m"))
                .isEqualTo(Duration.ofMinutes(15));
        assertThat(dev.sluice.operator.reconcile.TokenReconciler.duration("1.5s"))
                .isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> dev.sluice.operator.reconcile.TokenReconciler.duration("1d"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
