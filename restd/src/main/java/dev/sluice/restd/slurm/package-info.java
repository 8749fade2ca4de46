/**
 * Data parsers v0.0.42 to v0.0.45: the endpoints, and the mapping between the controller's messages and
 * their JSON, with its field names, nesting and {@code {set, infinite, number}} numbers.
 */
package dev.sluice.restd.slurm;
