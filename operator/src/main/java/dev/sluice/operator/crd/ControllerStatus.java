package dev.sluice.operator.crd;

/** The observed state of a {@link Controller}: conditions only, as Slinky's. */
public class ControllerStatus extends ConditionedStatus {}
