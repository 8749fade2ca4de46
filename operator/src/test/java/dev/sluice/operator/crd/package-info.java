/** Tests of the custom resource types, the generated CRDs and the example manifests. */
package dev.sluice.operator.crd;
