/**
 * Accounting from the controller's side: records derived from the journal are kept in a durable
 * outbox in StateSaveLocation and shipped, in order, to sluice-dbd. See docs/accounting.md.
 */
package dev.sluice.ctld.accounting;
