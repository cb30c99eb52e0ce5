/**
 * The destination table's shape: which payload keys become columns and as which type
 * ({@link dev.millpond.sinks.hoglake.schema.PayloadColumns}, drops counted by
 * {@link dev.millpond.sinks.hoglake.schema.PayloadDrops}), finding or creating the table and reconciling its partition
 * spec and sort order with configuration ({@link dev.millpond.sinks.hoglake.schema.TableResolver},
 * {@link dev.millpond.sinks.hoglake.schema.TableLayout}), adding and promoting columns a batch needs
 * ({@link dev.millpond.sinks.hoglake.schema.SchemaEvolution}), and the partition value of a row under Iceberg's
 * transforms ({@link dev.millpond.sinks.hoglake.schema.PartitionValue}). A layout that diverges from configuration is
 * {@link dev.millpond.sinks.hoglake.schema.HoglakeLayoutException}. It calls the catalog client and uses the parquet
 * column types; it writes no file and publishes nothing.
 */
package dev.millpond.sinks.hoglake.schema;
