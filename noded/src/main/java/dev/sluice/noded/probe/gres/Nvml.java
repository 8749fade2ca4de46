package dev.sluice.noded.probe.gres;

import java.util.List;

/** The part of NVML GRES discovery needs. The real one is {@link JnaNvml}; tests replay records. */
public interface Nvml {
    /**
     * @throws NvmlUnavailableException when there is no NVML library or it cannot start (no
     *     driver, no device): the caller falls back to gres.conf's {@code File=} lines
     */
    List<NvmlDevice> devices() throws NvmlUnavailableException;

    final class NvmlUnavailableException extends Exception {
        private static final long serialVersionUID = 1L;

        public NvmlUnavailableException(String message) {
            super(message);
        }
    }
}
