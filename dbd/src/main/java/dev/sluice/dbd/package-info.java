/** The accounting daemon ({@code sluice-dbd}): stores what the controller reports, answers sacct. */
package dev.sluice.dbd;
