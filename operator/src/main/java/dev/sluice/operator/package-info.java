/**
 * sluice-operator: Sluice clusters as Kubernetes custom resources. {@link
 * dev.sluice.operator.SluiceOperator} wires the reconcilers into a Java Operator SDK operator;
 * {@link dev.sluice.operator.OperatorMain} runs it in a pod (leader election, autoscaling
 * metrics). docs/kubernetes.md is the user's guide.
 */
package dev.sluice.operator;
