/** End-to-end: a real controller shipping to a real accounting daemon, on 127.0.0.1. */
package dev.sluice.dbd.e2e;
