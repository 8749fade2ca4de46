/**
 * The local development cluster behind {@code ./sluice up}: configuration for a controller
 * and node daemons on 127.0.0.1 with fake GPUs, and their supervision.
 */
package dev.sluice.packaging;
