/**
 * Pure functions from custom resources to the Kubernetes objects that realise them: the
 * controller's ConfigMap ({@code slurm.conf}, {@code sluice.conf}), Service and StatefulSet, and
 * a NodeSet's pods. No client, no I/O: the reconcilers apply what these return.
 */
package dev.sluice.operator.render;
