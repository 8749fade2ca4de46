/**
 * Durability of controller state: the journal (write-ahead log with group commit), snapshots,
 * and the codec between domain records and journal entries. The only controller package that
 * touches files.
 */
package dev.sluice.ctld.persistence;
