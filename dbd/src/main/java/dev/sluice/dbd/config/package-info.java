/** {@code slurmdbd.conf} reading and the daemon's typed settings. */
package dev.sluice.dbd.config;
