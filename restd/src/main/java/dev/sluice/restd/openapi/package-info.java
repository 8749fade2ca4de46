/**
 * {@code /openapi/v3}: this daemon's own OpenAPI document, generated from the route tables the
 * requests are dispatched on, so it lists exactly what is served.
 */
package dev.sluice.restd.openapi;
