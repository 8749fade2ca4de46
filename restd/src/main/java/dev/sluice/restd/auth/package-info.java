/**
 * Who a REST request speaks for, as slurmrestd's authentication plugins decide it: {@code rest_auth/jwt}
 * (the {@code X-SLURM-USER-*} headers, checked against the site's JWT key) and {@code rest_auth/local}
 * (the Unix socket's peer, who must be the daemon's own user).
 */
package dev.sluice.restd.auth;
