/**
 * Job steps (srun inside an allocation): the steps each running job has, their ids and the
 * resources they hold inside the job's allocation, kept beside the controller loop because they
 * never change what the scheduler sees; placement is {@code control.StepControl}, pure.
 */
package dev.sluice.ctld.step;
