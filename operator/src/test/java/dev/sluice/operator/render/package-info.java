/** Tests of the rendered Kubernetes objects. */
package dev.sluice.operator.render;
