/** The controller's typed configuration, and its derivation from {@code slurm.conf}. */
package dev.sluice.ctld.config;
