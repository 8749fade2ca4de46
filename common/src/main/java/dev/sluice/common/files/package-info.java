/**
 * Files a daemon keeps for itself (journal, snapshots, outbox, spool, keys, the embedded
 * database): created owner-only (0600 files, 0700 directories) whatever umask the daemon was
 * started with, since they hold users' scripts, environments and secrets (docs/security.md).
 */
package dev.sluice.common.files;
