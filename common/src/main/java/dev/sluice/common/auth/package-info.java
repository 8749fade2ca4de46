/**
 * Cluster credentials: the shared cluster key ({@code slurm.key}, or a {@code slurm.jwks} key
 * set so two keys can be valid while one is rotated out), the short-lived HMAC-signed
 * credentials that daemons and trusted signers attach to requests, and the HS256 user tokens
 * that {@code scontrol token} mints ({@code SLURM_JWT}); {@code RequestAuthenticator}, which
 * turns what rides with a network request into a verified {@code Principal} (refusing replays),
 * and {@code UserDb}, the host's user database (getpwnam through JNA) that maps names to uids.
 * Keys are read from files whose
 * permissions must keep other users out; time always comes in as an argument so verification
 * is testable without a clock.
 */
package dev.sluice.common.auth;
