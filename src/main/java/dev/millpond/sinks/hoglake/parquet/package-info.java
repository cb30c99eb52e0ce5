/**
 * Arrow rows to one parquet file, in memory, the way hoglake registers it:
 * {@link dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter} writes each column under its table field id with
 * the annotations readers bind through and SNAPPY pages (hand-wired, without Hadoop), and reads the footer back into
 * the column stats a registration carries. {@link dev.millpond.sinks.hoglake.parquet.HoglakeColumnType} is the set of
 * hoglake types this writer can encode, each with its parquet and Iceberg types;
 * {@link dev.millpond.sinks.hoglake.parquet.LiveTypeCasts} writes a batch column into a live column of another type
 * and gives a row's value in Iceberg form for partitioning. A type it cannot encode fails with
 * {@link dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException}. It uses only the catalog's wire shape of
 * column stats; it never talks to the catalog or the object store.
 */
package dev.millpond.sinks.hoglake.parquet;
