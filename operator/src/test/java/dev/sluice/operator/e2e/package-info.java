/**
 * End-to-end tests of the operator without Kubernetes: fabric8's mock API server in CRUD mode and
 * {@link dev.sluice.operator.e2e.Kubelet}, which runs the real Sluice daemon of every pod the
 * operator creates as a process on this machine.
 */
package dev.sluice.operator.e2e;
