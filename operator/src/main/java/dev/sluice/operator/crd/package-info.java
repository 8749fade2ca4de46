/**
 * The custom resources of group {@code sluice.dev}, version {@code v1alpha1}, modelled on SchedMD
 * Slinky's slurm-operator kinds ({@code Controller}, {@code NodeSet}, {@code LoginSet},
 * {@code Accounting}, {@code RestApi}, {@code Token}) with Slinky's field names where they apply,
 * so a Slinky manifest translates by changing its {@code apiVersion} (docs/kubernetes.md lists the
 * differences). Plain data: public fields, as Jackson and the CRD generator read them. The CRD
 * YAML under {@code packaging/operator/crds/} is generated from these classes.
 */
package dev.sluice.operator.crd;
