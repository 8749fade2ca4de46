package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** Labels and annotations added to the objects made from a template. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class Metadata {
    public Map<String, String> labels;
    public Map<String, String> annotations;
}
