/**
 * Pure functions from custom resources to the Kubernetes objects that realise them: the
 * controller's ConfigMap ({@code slurm.conf}, {@code sluice.conf}), Service and StatefulSet, a
 * NodeSet's pods, and the Deployments (and Services) of an Accounting, a RestApi and a LoginSet.
 * No client, no I/O: the reconcilers apply what these return.
 */
package dev.sluice.operator.render;
