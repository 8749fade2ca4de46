/**
 * Scale-in candidates: which nodes an autoscaler can take out first, ranked by when the jobs on
 * them reach their time limits. Pure: callers hand in nodes, running jobs and the current time.
 */
package dev.sluice.common.scalein;
