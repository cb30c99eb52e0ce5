package dev.millpond.sinks.hoglake.parquet;

import org.apache.iceberg.types.Type;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.util.Arrays;
import java.util.Optional;

/**
 * The hoglake column types this writer can put in a parquet file, each with its parquet physical type and annotation
 * and the Iceberg type its bounds are serialized as. Names are the wire names.
 */
public enum HoglakeColumnType {
    BOOLEAN("boolean", PrimitiveTypeName.BOOLEAN, null),
    INT("int", PrimitiveTypeName.INT32, null),
    LONG("long", PrimitiveTypeName.INT64, null),
    FLOAT("float", PrimitiveTypeName.FLOAT, null),
    DOUBLE("double", PrimitiveTypeName.DOUBLE, null),
    DATE("date", PrimitiveTypeName.INT32, LogicalTypeAnnotation.dateType()),
    TIMESTAMP("timestamp", PrimitiveTypeName.INT64,
            LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)),
    TIMESTAMPTZ("timestamptz", PrimitiveTypeName.INT64,
            LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)),
    STRING("string", PrimitiveTypeName.BINARY, LogicalTypeAnnotation.stringType()),
    JSON("json", PrimitiveTypeName.BINARY, LogicalTypeAnnotation.jsonType()),
    UUID("uuid", PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, LogicalTypeAnnotation.uuidType()),
    BINARY("binary", PrimitiveTypeName.BINARY, null);

    private final String wireName;
    private final PrimitiveTypeName physical;
    private final LogicalTypeAnnotation annotation;
    private final Type icebergType;

    HoglakeColumnType(String wireName, PrimitiveTypeName physical, LogicalTypeAnnotation annotation) {
        this.wireName = wireName;
        this.physical = physical;
        this.annotation = annotation;
        this.icebergType = HoglakeIcebergTypes.of(wireName);
    }

    public String wireName() {
        return wireName;
    }

    PrimitiveTypeName physical() {
        return physical;
    }

    /** Null when the physical type alone says it. */
    LogicalTypeAnnotation annotation() {
        return annotation;
    }

    /** The mapped Iceberg type: bounds are its single-value serialization, never the hoglake type's. */
    public Type icebergType() {
        return icebergType;
    }

    public static Optional<HoglakeColumnType> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }
}
