/**
 * GRES discovery: what generic resources this machine really has. {@code File=} paths of
 * gres.conf are checked to exist (character devices or plain files), and with
 * {@code AutoDetect=nvml} GPUs are asked of NVML through JNA behind the {@link
 * dev.sluice.noded.probe.gres.Nvml} interface, so tests drive the same logic with recorded data.
 */
package dev.sluice.noded.probe.gres;
