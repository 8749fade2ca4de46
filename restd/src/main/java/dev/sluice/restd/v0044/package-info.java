/**
 * Data parser v0.0.44: the endpoints, and the mapping between the controller's messages and
 * v0.0.44's JSON, with its field names, nesting and {@code {set, infinite, number}} numbers.
 */
package dev.sluice.restd.v0044;
