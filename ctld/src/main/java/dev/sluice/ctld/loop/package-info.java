/**
 * The controller's single-writer loop: commands in, journaled records, published images and
 * effects out. The only place controller state is mutated.
 */
package dev.sluice.ctld.loop;
