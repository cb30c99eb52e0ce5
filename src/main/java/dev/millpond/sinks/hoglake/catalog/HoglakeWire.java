package dev.millpond.sinks.hoglake.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * The JSON shapes of the hoglake REST contract that the writer uses, one record per shape. Requests carry only the
 * documented fields (the server answers 400 to an unknown one) and omit absent optional fields; responses ignore
 * fields this writer does not read, as the contract asks of clients.
 */
public final class HoglakeWire {
    private HoglakeWire() {
    }

    // ---- requests ----

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CreateCatalog(@JsonProperty("name") String name, @JsonProperty("data_path") String dataPath) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CreateNamespace(@JsonProperty("name") String name) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TypeParams(@JsonProperty("precision") int precision, @JsonProperty("scale") int scale) {
    }

    /** A column to create; {@code typeParams} for decimals only, {@code children} for containers only. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ColumnDef(
            @JsonProperty("name") String name,
            @JsonProperty("type") String type,
            @JsonProperty("type_params") TypeParams typeParams,
            @JsonProperty("nullable") boolean nullable,
            @JsonProperty("children") List<ColumnDef> children) {

        public static ColumnDef scalar(String name, String type, boolean nullable) {
            return new ColumnDef(name, type, null, nullable, null);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CreateTable(@JsonProperty("name") String name, @JsonProperty("columns") List<ColumnDef> columns) {
    }

    /** One alter operation; the {@code op} literal selects the shape. */
    public sealed interface AlterOp permits AddColumn, PromoteColumn, SetPartitionSpec, SetSortOrder {
        @JsonProperty("op")
        String op();
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AddColumn(@JsonProperty("column") ColumnDef column, @JsonProperty("parent") String parent)
            implements AlterOp {
        @Override
        public String op() {
            return "add_column";
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PromoteColumn(@JsonProperty("name") String name, @JsonProperty("to") String to) implements AlterOp {
        @Override
        public String op() {
            return "promote_column";
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PartitionField(
            @JsonProperty("source_field_id") long sourceFieldId,
            @JsonProperty("transform") String transform,
            @JsonProperty("transform_param") Integer transformParam) {
    }

    /** An empty list makes the table unpartitioned. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SetPartitionSpec(@JsonProperty("fields") List<PartitionField> fields) implements AlterOp {
        @Override
        public String op() {
            return "set_partition_spec";
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SortField(
            @JsonProperty("source_field_id") long sourceFieldId,
            @JsonProperty("direction") String direction,
            @JsonProperty("null_order") String nullOrder) {
    }

    /** The key is {@code sort_fields}, not {@code fields}; an empty list removes the sort order. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SetSortOrder(@JsonProperty("sort_fields") List<SortField> sortFields) implements AlterOp {
        @Override
        public String op() {
            return "set_sort_order";
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Alter(@JsonProperty("ops") List<AlterOp> ops) {
    }

    /** Footer statistics of one leaf; bounds in Iceberg single-value serialization, sent as padded base64. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ColumnStats(
            @JsonProperty("field_id") long fieldId,
            @JsonProperty("value_count") long valueCount,
            @JsonProperty("null_count") long nullCount,
            @JsonProperty("lower_bound") byte[] lowerBound,
            @JsonProperty("upper_bound") byte[] upperBound) {
    }

    /** One uploaded parquet file; {@code partitionValues} only on a partitioned table (nulls stay in the list). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FileRegistration(
            @JsonProperty("path") String path,
            @JsonProperty("record_count") long recordCount,
            @JsonProperty("file_size_bytes") long fileSizeBytes,
            @JsonProperty("footer_size") long footerSize,
            @JsonProperty("column_stats") List<ColumnStats> columnStats,
            @JsonProperty("partition_values") List<String> partitionValues) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TableAppend(
            @JsonProperty("namespace") String namespace,
            @JsonProperty("table") String table,
            @JsonProperty("expected_table_uuid") String expectedTableUuid,
            @JsonProperty("files") List<FileRegistration> files) {
    }

    /** The idempotency key travels in the body. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CommitRequest(
            @JsonProperty("idempotency_key") String idempotencyKey,
            @JsonProperty("read_snapshot") Long readSnapshot,
            @JsonProperty("appends") List<TableAppend> appends,
            @JsonProperty("author") String author,
            @JsonProperty("message") String message) {
    }

    // ---- responses ----

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CatalogInfo(
            @JsonProperty("name") String name,
            @JsonProperty("data_path") String dataPath,
            @JsonProperty("head_snapshot_id") long headSnapshotId,
            @JsonProperty("schema_version") long schemaVersion) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NamespaceInfo(@JsonProperty("name") String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ColumnInfo(
            @JsonProperty("name") String name,
            @JsonProperty("type") String type,
            @JsonProperty("type_params") TypeParams typeParams,
            @JsonProperty("nullable") boolean nullable,
            @JsonProperty("field_id") long fieldId,
            @JsonProperty("ordinal") int ordinal,
            @JsonProperty("children") List<ColumnInfo> children) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PartitionSpecInfo(@JsonProperty("spec_id") int specId,
            @JsonProperty("fields") List<PartitionField> fields) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SortSpecInfo(@JsonProperty("sort_id") int sortId, @JsonProperty("fields") List<SortField> fields) {
    }

    /** A table; {@code partitionSpec} and {@code sortSpec} are null when the table has none. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TableInfo(
            @JsonProperty("name") String name,
            @JsonProperty("namespace") String namespace,
            @JsonProperty("table_uuid") String tableUuid,
            @JsonProperty("columns") List<ColumnInfo> columns,
            @JsonProperty("partition_spec") PartitionSpecInfo partitionSpec,
            @JsonProperty("sort_spec") SortSpecInfo sortSpec,
            @JsonProperty("read_snapshot_id") Long readSnapshotId) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CommitResult(@JsonProperty("snapshot_id") long snapshotId,
            @JsonProperty("schema_version") Long schemaVersion) {
    }

    /** The error envelope; the last three fields come only on the typed 409s. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ApiError(
            @JsonProperty("error") String error,
            @JsonProperty("detail") String detail,
            @JsonProperty("tables") List<String> tables,
            @JsonProperty("read_snapshot") Long readSnapshot,
            @JsonProperty("retry") String retry) {
    }
}
