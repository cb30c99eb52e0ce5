package dev.millpond.sinks;

/**
 * Which dependency a sink could not reach while it was being opened at startup, when the failure is an outage worth
 * waiting out (refused or reset connections, timeouts, 5xx) rather than configuration (credentials, a missing
 * database or bucket, an incompatible catalog), which fails startup at once.
 */
public enum StartupOutage {
    /** The DuckLake catalog database or the hoglake control plane. */
    CATALOG,
    /** The object store the data files go to. */
    OBJECT_STORE
}
