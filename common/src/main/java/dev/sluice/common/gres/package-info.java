/**
 * Generic resources (GRES): the {@code Gres=} strings of node lines, job and step GRES requests
 * ({@code --gres=gpu:a100:2}), and the {@code gres.conf} reader's records. Pure parsing and
 * formatting; device probing lives in noded.
 */
package dev.sluice.common.gres;
