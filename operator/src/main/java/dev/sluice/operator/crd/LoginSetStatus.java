package dev.sluice.operator.crd;

/** The observed state of a {@link LoginSet}. */
public class LoginSetStatus extends ConditionedStatus {
    public Integer replicas;
    public String selector;
}
