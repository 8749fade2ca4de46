/** Hardware discovery of the node daemon: CPUs and memory (GRES discovery joins later). */
package dev.sluice.noded.probe;
