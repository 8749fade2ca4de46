package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** A status with Kubernetes conditions, as every Slinky kind's has. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ConditionedStatus {
    public Long observedGeneration;
    public List<Condition> conditions = new ArrayList<>();
}
