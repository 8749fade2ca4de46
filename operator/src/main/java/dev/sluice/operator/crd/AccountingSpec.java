package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/** What an {@link Accounting} should be; Slinky's {@code AccountingSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class AccountingSpec {
    @Required
    public SecretKeySelector slurmKeyRef;

    public SecretKeySelector jwtHs256KeyRef;
    public ContainerWrapper slurmdbd;
    public PodTemplate template;
    /** The MariaDB the daemon stores to, given by reference. */
    public StorageConfig storageConfig;
    /** Lines appended to the rendered slurmdbd.conf. */
    public String extraConf;

    public ServiceSpec service;
}
