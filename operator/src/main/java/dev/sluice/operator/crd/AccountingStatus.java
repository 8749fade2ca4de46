package dev.sluice.operator.crd;

/** The observed state of a {@link Accounting}. */
public class AccountingStatus extends ConditionedStatus {}
