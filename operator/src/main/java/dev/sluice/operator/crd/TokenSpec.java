package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/** What a {@link Token} should be; Slinky's {@code TokenSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class TokenSpec {
    @Required
    public SecretKeySelector jwtHs256KeyRef;

    /** The user the token names ({@code sun} claim). */
    @Required
    public String username;

    /** A Kubernetes duration, e.g. {@code 15m} or {@code 24h}. */
    @Pattern("^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$")
    public String lifetime;

    public Boolean refresh;
    /** Where the token is written; {@code <name>-token}, key {@code SLURM_JWT}, when unset. */
    public SecretKeySelector secretRef;
}
