/**
 * AccountingStorageEnforce: the associations and QOS sluice-dbd holds, as an immutable
 * {@link dev.sluice.ctld.limits.AccountingPolicy}, and the pure checks that use it: at submit
 * ({@link dev.sluice.ctld.limits.Admission}) and in the scheduling pass
 * ({@link dev.sluice.ctld.limits.LimitGate}, pending reasons such as AssocMaxJobsLimit).
 */
package dev.sluice.ctld.limits;
