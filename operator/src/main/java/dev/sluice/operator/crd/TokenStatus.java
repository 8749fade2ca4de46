package dev.sluice.operator.crd;

/** The observed state of a {@link Token}: when the Secret's token was issued (RFC 3339). */
public class TokenStatus extends ConditionedStatus {
    public String issuedAt;
}
