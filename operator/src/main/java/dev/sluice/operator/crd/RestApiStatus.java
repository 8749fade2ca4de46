package dev.sluice.operator.crd;

/** The observed state of a {@link RestApi}. */
public class RestApiStatus extends ConditionedStatus {}
