/**
 * What a NodeSet reconcile does about its pods, decided without I/O ({@link
 * dev.sluice.operator.scale.ScalePlan}): which ordinals to create, which nodes to drain (least
 * work first, by the controller's {@code scontrol show scalein} ranking), which to resume, and
 * which drained pods may go because their jobs ended or their grace period ran out.
 */
package dev.sluice.operator.scale;
