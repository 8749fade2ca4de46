package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/** Where accounting is stored: slurmdbd.conf's StorageHost, StoragePort, StorageLoc, StorageUser. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class StorageConfig {
    public String host;
    public Integer port;
    public String database;
    public String username;
    public SecretKeySelector passwordKeyRef;
}
