package dev.sluice.ctld.state;

/** Administrative node changes that are journaled (scontrol update State=..., timeouts). */
public enum NodeTransition {
    DOWN,
    DRAIN,
    RESUME,
    UNDRAIN,
    FUTURE
}
