/**
 * The HTTP side: Jetty on TCP or on a Unix socket (whose peer the kernel names, for
 * rest_auth/local), the answer envelope ({@code meta}, {@code errors}, {@code warnings}) and
 * slurmrestd's error numbers.
 */
package dev.sluice.restd.http;
