/**
 * The hoglake control plane as the writer reaches it: the REST routes
 * ({@link dev.millpond.sinks.hoglake.catalog.HoglakeApi}), their JSON shapes
 * ({@link dev.millpond.sinks.hoglake.catalog.HoglakeWire}) and the client
 * ({@link dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient}) that turns every answer into a
 * {@link dev.millpond.sinks.hoglake.catalog.CatalogReply}: the value, or a
 * {@link dev.millpond.sinks.hoglake.catalog.CatalogFailure} already judged retryable or permanent from its status,
 * error code and request kind, so no caller reads an HTTP status itself.
 * {@link dev.millpond.sinks.hoglake.catalog.HoglakeWriteException} carries such a failure out of the write path.
 * Nothing here retries, creates tables or knows about parquet or Kafka; it depends on no other hoglake package.
 */
package dev.millpond.sinks.hoglake.catalog;
