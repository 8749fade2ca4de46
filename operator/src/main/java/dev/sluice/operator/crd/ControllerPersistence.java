package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The StateSaveLocation volume (Slinky's {@code ControllerPersistence}, with the claim fields a
 * site sets). Disabled, the state lives in an emptyDir and a new pod starts empty.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ControllerPersistence {
    public Boolean enabled;
    /** An existing claim to use instead of the StatefulSet's claim template. */
    public String existingClaim;

    public String storageClassName;
    public List<String> accessModes;
    /** The claim's size, e.g. {@code 4Gi}. */
    public String storage;
}
