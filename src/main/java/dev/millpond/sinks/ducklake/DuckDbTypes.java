package dev.millpond.sinks.ducklake;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** The DuckDB column type the original maps each Arrow type to. */
final class DuckDbTypes {

    private DuckDbTypes() {
    }

    static String of(Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.ExtensionType ext) {
            return "arrow.uuid".equals(ext.extensionName()) ? "UUID" : of(ext.storageType());
        }
        return of(type);
    }

    static String of(ArrowType type) {
        switch (type.getTypeID()) {
            case Bool:
                return "BOOLEAN";
            case Int: {
                ArrowType.Int i = (ArrowType.Int) type;
                String base = switch (i.getBitWidth()) {
                    case 8 -> "TINYINT";
                    case 16 -> "SMALLINT";
                    case 32 -> "INTEGER";
                    default -> "BIGINT";
                };
                return i.getIsSigned() ? base : "U" + base;
            }
            case FloatingPoint:
                return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.DOUBLE ? "DOUBLE" : "FLOAT";
            case Utf8:
            case LargeUtf8:
            case Utf8View:
                return "VARCHAR";
            case Binary:
            case LargeBinary:
            case FixedSizeBinary:
                return "BLOB";
            case Date:
                return "DATE";
            case Timestamp:
                return ((ArrowType.Timestamp) type).getTimezone() == null ? "TIMESTAMP" : "TIMESTAMPTZ";
            case Struct:
            case List:
            case LargeList:
            case Map:
                return "JSON";
            default:
                return "VARCHAR";
        }
    }

    /** information_schema spells some types differently from DDL; compare in one spelling. */
    static String normalize(String liveType) {
        String t = liveType.trim().toUpperCase(java.util.Locale.ROOT);
        return switch (t) {
            case "TIMESTAMP WITH TIME ZONE" -> "TIMESTAMPTZ";
            case "TIMESTAMP WITHOUT TIME ZONE" -> "TIMESTAMP";
            default -> t;
        };
    }
}
