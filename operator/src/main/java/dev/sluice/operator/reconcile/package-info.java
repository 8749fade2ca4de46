/**
 * The Java Operator SDK reconcilers: {@link dev.sluice.operator.reconcile.ControllerReconciler}
 * (ConfigMap, Service, StatefulSet of a Controller) and {@link
 * dev.sluice.operator.reconcile.NodeSetReconciler} (a NodeSet's pods, drain-aware scale-in), with
 * their status conditions and Kubernetes events. Every child carries an owner reference to its
 * resource, so deleting the resource deletes its children.
 */
package dev.sluice.operator.reconcile;
