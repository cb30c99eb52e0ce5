/**
 * The hoglake sink as the pump sees it: {@link dev.millpond.sinks.hoglake.HoglakeSink} opens the catalog
 * ({@link dev.millpond.sinks.hoglake.CatalogResolution}) and probes the object store
 * ({@link dev.millpond.sinks.hoglake.HoglakeObjectStore}) at startup, then per flush prepares the files
 * ({@link dev.millpond.sinks.hoglake.FlushPreparation}: one parquet file per partition tuple, uploaded), holds the one
 * idempotent commit ({@link dev.millpond.sinks.hoglake.PreparedFlush}, keyed by
 * {@link dev.millpond.sinks.hoglake.FlushKey}) across retries, and counts uploads no commit registers
 * ({@link dev.millpond.sinks.hoglake.OrphanedFiles}). {@link dev.millpond.sinks.hoglake.HoglakeFailures} gives the
 * verdict on any failure of it. This package composes the sub-packages {@code catalog} (the control-plane client),
 * {@code parquet} (file encoding) and {@code schema} (the table's shape); they never depend on it, and
 * {@code catalog} depends on neither of the others.
 */
package dev.millpond.sinks.hoglake;
