/** Who a REST request speaks for: Slurm's {@code rest_auth/jwt} headers, checked against the site's JWT key. */
package dev.sluice.restd.auth;
