/**
 * The Java Operator SDK reconcilers, one per kind: {@link
 * dev.sluice.operator.reconcile.ControllerReconciler} (ConfigMap, Service, StatefulSet of a
 * Controller), {@link dev.sluice.operator.reconcile.NodeSetReconciler} (a NodeSet's pods,
 * drain-aware scale-in and rolling updates), {@link dev.sluice.operator.reconcile.TokenReconciler},
 * {@link dev.sluice.operator.reconcile.AccountingReconciler}, {@link
 * dev.sluice.operator.reconcile.RestApiReconciler} and {@link
 * dev.sluice.operator.reconcile.LoginSetReconciler} (their Deployments), with their status
 * conditions and Kubernetes events. Every child carries an owner reference to its resource, so
 * deleting the resource deletes its children.
 */
package dev.sluice.operator.reconcile;
