/** The HTTP side: the JDK's server, the answer envelope ({@code meta}, {@code errors}, {@code warnings}) and slurmrestd's error numbers. */
package dev.sluice.restd.http;
