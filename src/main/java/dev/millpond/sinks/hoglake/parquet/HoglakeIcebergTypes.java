package dev.millpond.sinks.hoglake.parquet;

import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.util.Optional;

/**
 * Each hoglake scalar wire type's mapped Iceberg type. Bounds are the Iceberg single-value serialization of this
 * type, never of the hoglake type: uint32 is an Iceberg long, uint64 a decimal(20,0), the three non-nano timestamp
 * precisions are all micros.
 */
final class HoglakeIcebergTypes {
    private HoglakeIcebergTypes() {
    }

    /** Empty for containers, variant and unknown names; {@code precision}/{@code scale} only matter for decimal. */
    static Optional<Type> of(String wireName, int precision, int scale) {
        Type t = switch (wireName) {
            case "boolean" -> Types.BooleanType.get();
            case "int8", "int16", "int", "uint8", "uint16" -> Types.IntegerType.get();
            case "long", "uint32" -> Types.LongType.get();
            case "uint64" -> Types.DecimalType.of(20, 0);
            case "float" -> Types.FloatType.get();
            case "double" -> Types.DoubleType.get();
            case "decimal" -> Types.DecimalType.of(precision, scale);
            case "date" -> Types.DateType.get();
            case "time" -> Types.TimeType.get();
            case "timestamp_s", "timestamp_ms", "timestamp" -> Types.TimestampType.withoutZone();
            case "timestamp_ns" -> Types.TimestampNanoType.withoutZone();
            case "timestamptz" -> Types.TimestampType.withZone();
            case "string", "json" -> Types.StringType.get();
            case "uuid" -> Types.UUIDType.get();
            case "binary" -> Types.BinaryType.get();
            default -> null;
        };
        return Optional.ofNullable(t);
    }

    static Type of(String wireName) {
        return of(wireName, 0, 0).orElseThrow(() -> new IllegalArgumentException(wireName + " has no scalar mapping"));
    }
}
