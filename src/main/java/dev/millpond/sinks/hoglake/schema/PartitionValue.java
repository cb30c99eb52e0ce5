package dev.millpond.sinks.hoglake.schema;

import dev.millpond.config.HoglakeTransform;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.EnumSet;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * One partition value as hoglake stores it: a string (or null for a null source), computed by the writer under
 * Iceberg semantics. Temporal transforms and bucket hashing are Iceberg's own ({@link Transforms}); identity values
 * are spelled as pyhoglake spells them, so files of one table agree whichever writer produced them.
 *
 * <p>Source values are in Iceberg's internal form: Integer for int and date (epoch days), Long for long and
 * timestamps (epoch micros), Boolean, CharSequence, UUID, ByteBuffer.
 */
public final class PartitionValue {

    /** The contract's bucket allowlist, restricted to the types this writer encodes. */
    static final Set<HoglakeColumnType> BUCKETABLE = EnumSet.of(HoglakeColumnType.INT, HoglakeColumnType.LONG,
            HoglakeColumnType.DATE, HoglakeColumnType.TIMESTAMP, HoglakeColumnType.TIMESTAMPTZ,
            HoglakeColumnType.STRING, HoglakeColumnType.UUID, HoglakeColumnType.BINARY);
    private static final Set<HoglakeColumnType> TEMPORAL = EnumSet.of(HoglakeColumnType.DATE,
            HoglakeColumnType.TIMESTAMP, HoglakeColumnType.TIMESTAMPTZ);

    private PartitionValue() {
    }

    /** @throws UnsupportedColumnTypeException when the transform is not defined on the source type */
    public static String of(HoglakeTransform transform, OptionalInt bucketCount, HoglakeColumnType type,
            Object value) {
        check(transform, type);
        if (value == null) {
            return null;
        }
        return switch (transform) {
            case IDENTITY -> identity(type, value);
            case YEAR -> apply(Transforms.year(), type.icebergType(), value);
            case MONTH -> apply(Transforms.month(), type.icebergType(), value);
            case DAY -> apply(Transforms.day(), type.icebergType(), value);
            case HOUR -> apply(Transforms.hour(), type.icebergType(), value);
            case BUCKET -> apply(Transforms.bucket(bucketCount.orElseThrow()), type.icebergType(), value);
        };
    }

    /**
     * {@link #of} with the transform checked and bound once, for computing one value per row of a flush. Source
     * values are in Iceberg's internal form, as for {@link #of}; a null source gives null.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Function<Object, String> binder(HoglakeTransform transform,
            OptionalInt bucketCount, HoglakeColumnType type) {
        check(transform, type);
        if (transform == HoglakeTransform.IDENTITY) {
            return value -> value == null ? null : identity(type, value);
        }
        Transform t = switch (transform) {
            case YEAR -> Transforms.year();
            case MONTH -> Transforms.month();
            case DAY -> Transforms.day();
            case HOUR -> Transforms.hour();
            case BUCKET -> Transforms.bucket(bucketCount.orElseThrow());
            case IDENTITY -> throw new IllegalStateException("handled above");
        };
        Function bound = t.bind(type.icebergType());
        return value -> value == null ? null : String.valueOf(bound.apply(value));
    }

    /** The same rule the server applies when the spec is declared, checked before any row is written. */
    public static void check(HoglakeTransform transform, HoglakeColumnType type) {
        boolean ok = switch (transform) {
            case IDENTITY -> type != HoglakeColumnType.FLOAT && type != HoglakeColumnType.DOUBLE;
            case YEAR, MONTH, DAY -> TEMPORAL.contains(type);
            case HOUR -> type == HoglakeColumnType.TIMESTAMP || type == HoglakeColumnType.TIMESTAMPTZ;
            case BUCKET -> BUCKETABLE.contains(type);
        };
        if (!ok) {
            throw new UnsupportedColumnTypeException(transform.wireName() + " partitioning is not defined on "
                    + type.wireName() + (transform == HoglakeTransform.IDENTITY
                    ? " in this writer (its identity spelling is Python's float repr)" : ""));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String apply(Transform transform, Type type, Object value) {
        Object result = transform.bind(type).apply(value);
        return String.valueOf(result);
    }

    private static String identity(HoglakeColumnType type, Object value) {
        return switch (type) {
            case BOOLEAN -> ((Boolean) value) ? "true" : "false";
            case INT, LONG -> value.toString();
            case STRING, JSON -> value.toString();
            case UUID -> value.toString();
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIMESTAMP -> isoformat((Long) value);
            case TIMESTAMPTZ -> isoformat((Long) value) + "+00:00";
            case BINARY -> {
                ByteBuffer b = ((ByteBuffer) value).duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                yield Base64.getEncoder().encodeToString(bytes);
            }
            case FLOAT, DOUBLE -> throw new IllegalStateException("refused by check()");
        };
    }

    /** Python's {@code datetime.isoformat()}: no fraction when the microseconds are 0, else exactly six digits. */
    static String isoformat(long micros) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int fraction = (int) Math.floorMod(micros, 1_000_000L);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        String base = String.format("%04d-%02d-%02dT%02d:%02d:%02d", t.getYear(), t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
        return fraction == 0 ? base : base + String.format(".%06d", fraction);
    }
}
