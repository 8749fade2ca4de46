package dev.sluice.operator.render;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.Token;
import dev.sluice.operator.crd.TokenSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.Locale;

/**
 * The operator's own {@link Token} for a Controller with {@code jwtHs256KeyRef}: a JWT for the
 * cluster's SlurmUser (an administrator, as draining and deleting nodes need), refreshed, in the
 * Secret {@code <controller>-operator-token}. With it the operator talks to the controller as
 * that user and never needs the cluster key, which would let it act as any user or daemon.
 */
public final class OperatorToken {
    public static final String KEY = "SLURM_JWT";
    /** An hour, renewed after 40 minutes: a leaked token is short-lived. */
    public static final String LIFETIME = "1h";

    private OperatorToken() {}

    public static String name(Controller c) {
        return c.getMetadata().getName() + "-operator";
    }

    public static String secretName(Controller c) {
        return name(c) + "-token";
    }

    public static Token token(Controller c, String slurmConf) {
        Token t = new Token();
        t.setMetadata(new ObjectMetaBuilder()
                .withName(name(c))
                .withNamespace(c.getMetadata().getNamespace())
                .withLabels(Names.controllerLabels(c))
                .build());
        TokenSpec spec = new TokenSpec();
        spec.jwtHs256KeyRef = c.getSpec().jwtHs256KeyRef;
        spec.username = slurmUser(slurmConf);
        spec.lifetime = LIFETIME;
        spec.refresh = true;
        spec.secretRef = new SecretKeySelector(KEY, secretName(c), false);
        t.setSpec(spec);
        return t;
    }

    /** The SlurmUser the rendered slurm.conf sets (extraConf may change it); Slurm's default root. */
    static String slurmUser(String slurmConf) {
        String user = "root";
        for (String line : slurmConf.lines().map(String::strip).toList()) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("slurmuser")) {
                user = line.substring(eq + 1).strip();
            }
        }
        return user;
    }
}
