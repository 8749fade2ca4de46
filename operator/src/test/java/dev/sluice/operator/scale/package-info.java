/** Tests of the scale plan. */
package dev.sluice.operator.scale;
