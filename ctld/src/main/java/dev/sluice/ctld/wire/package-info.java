/** The one meeting point of generated protocol classes and controller domain values. */
package dev.sluice.ctld.wire;
