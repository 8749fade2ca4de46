/**
 * sluice-restd: Slurm's REST API (slurmrestd) in front of the controller. Requests are
 * authenticated with Slurm's rest_auth/jwt headers and sent on to the controller with the
 * same token, so the controller applies the commands' authorization to the REST user.
 */
package dev.sluice.restd;
