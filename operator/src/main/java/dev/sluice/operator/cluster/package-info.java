/**
 * How the operator talks to a Sluice controller: {@link dev.sluice.operator.cluster.SluiceCluster}
 * (what the reconcilers need: node states, the scale-in ranking, drain, resume, delete) and its
 * implementation over the commands' controller client, authenticated with the cluster key from
 * the Controller's {@code slurmKeyRef} Secret.
 */
package dev.sluice.operator.cluster;
