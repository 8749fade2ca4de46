/**
 * Job steps on the wire (srun inside an allocation): requests decided by the controller loop
 * ({@code control.StepCommands}, the steps being soft state of {@code state.ClusterState}), the
 * launch of a placed step's tasks on its nodes, and what {@code scontrol show step} is told.
 */
package dev.sluice.ctld.step;
