package dev.sluice.common.conf;

/**
 * A configuration line after comment removal and {@code \} continuation.
 *
 * @param file the file name as given to the reader
 * @param line the number of the line's first physical line
 * @param text the joined text
 */
public record LogicalLine(String file, int line, String text) {}
