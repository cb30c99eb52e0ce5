package dev.millpond.sinks.hoglake.parquet;

import dev.millpond.vocabulary.DoubleText;
import dev.millpond.vocabulary.UuidText;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter.LeafWriter;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * A batch column written into a live column of another type: the live type wins (the table is what readers see).
 * Neither hoglake nor Iceberg promotes string ↔ uuid, so a uuid batch column under a live string column is written
 * as canonical text, and a string batch column under a live uuid column is parsed back to the 16 bytes (text that is
 * not a UUID becomes null). A live string column takes any scalar as the converter's text; a live long or double
 * takes narrower numbers. Anything else is not castable and the caller leaves the column out.
 */
public final class LiveTypeCasts {

    private static final DateTimeFormatter TIMESTAMP_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private LiveTypeCasts() {
    }

    /** A writer of {@code v} (extension vectors already unwrapped) into a {@code live} column, or null. */
    static LeafWriter cast(HoglakeColumnType live, FieldVector v) {
        return switch (live) {
            case STRING, JSON -> {
                if (v instanceof FixedSizeBinaryVector x && x.getByteWidth() == 16) {
                    yield text(x, r -> uuidText(x.get(r)));
                }
                if (v instanceof BigIntVector x) {
                    yield text(x, r -> Long.toString(x.get(r)));
                }
                if (v instanceof Float8Vector x) {
                    yield text(x, r -> DoubleText.of(x.get(r)));
                }
                if (v instanceof BitVector x) {
                    yield text(x, r -> x.get(r) != 0 ? "true" : "false");
                }
                if (v instanceof TimeStampMicroTZVector x) {
                    yield text(x, r -> TIMESTAMP_TEXT.format(Instant.EPOCH.plus(x.get(r), ChronoUnit.MICROS)));
                }
                yield null;
            }
            case UUID -> v instanceof VarCharVector x ? uuidFromText(x) : null;
            case LONG -> v instanceof IntVector x ? HoglakeParquetWriter.of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            case DOUBLE -> {
                if (v instanceof BigIntVector x) {
                    yield HoglakeParquetWriter.of(x, (rc, r) -> rc.addDouble(x.get(r)));
                }
                if (v instanceof Float4Vector x) {
                    yield HoglakeParquetWriter.of(x, (rc, r) -> rc.addDouble(x.get(r)));
                }
                if (v instanceof IntVector x) {
                    yield HoglakeParquetWriter.of(x, (rc, r) -> rc.addDouble(x.get(r)));
                }
                yield null;
            }
            case TIMESTAMP -> v instanceof TimeStampMicroTZVector x
                    ? HoglakeParquetWriter.of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            case TIMESTAMPTZ -> v instanceof TimeStampMicroVector x
                    ? HoglakeParquetWriter.of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            default -> null;
        };
    }

    /** Non-null values of {@code v} that are not UUIDs: what writing it into a live uuid column nulls. */
    public static long unparseableUuids(VarCharVector v) {
        long[] bits = new long[2];
        long bad = 0;
        for (int r = 0; r < v.getValueCount(); r++) {
            if (!v.isNull(r) && !UuidText.parseInto(new String(v.get(r), StandardCharsets.UTF_8), bits)) {
                bad++;
            }
        }
        return bad;
    }

    /**
     * Row {@code row} of {@code vector} in Iceberg's internal form for a {@code live} column (what partition
     * transforms take): the same value the file holds, so a file's partition tuple describes its rows. Null for a
     * null, or a value the cast nulls.
     */
    public static Object icebergValue(HoglakeColumnType live, FieldVector vector, int row) {
        FieldVector v = vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
        if (v.isNull(row)) {
            return null;
        }
        switch (live) {
            case LONG:
                return v instanceof IntVector x ? (long) x.get(row) : ((BigIntVector) v).get(row);
            case INT:
                return ((IntVector) v).get(row);
            case BOOLEAN:
                return ((BitVector) v).get(row) != 0;
            case DATE:
                return ((DateDayVector) v).get(row);
            case TIMESTAMP:
            case TIMESTAMPTZ:
                return v instanceof TimeStampMicroTZVector x ? x.get(row) : ((TimeStampMicroVector) v).get(row);
            case UUID:
                if (v instanceof VarCharVector x) {
                    UuidText.Bits b = UuidText.parse(new String(x.get(row), StandardCharsets.UTF_8));
                    return b == null ? null : new UUID(b.high(), b.low());
                }
                ByteBuffer u = ByteBuffer.wrap(((FixedSizeBinaryVector) v).get(row));
                return new UUID(u.getLong(), u.getLong());
            case STRING:
            case JSON:
                if (v instanceof VarCharVector x) {
                    return new String(x.get(row), StandardCharsets.UTF_8);
                }
                if (v instanceof FixedSizeBinaryVector x) {
                    return uuidText(x.get(row));
                }
                if (v instanceof BigIntVector x) {
                    return Long.toString(x.get(row));
                }
                if (v instanceof BitVector x) {
                    return x.get(row) != 0 ? "true" : "false";
                }
                throw new UnsupportedColumnTypeException("cannot partition by a string column written from "
                        + v.getField().getType());
            case BINARY:
                return ByteBuffer.wrap(((VarBinaryVector) v).get(row));
            default:
                throw new UnsupportedColumnTypeException("cannot partition by a " + live.wireName() + " column");
        }
    }

    private static String uuidText(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return UuidText.canonical(b.getLong(), b.getLong());
    }

    private interface Text {
        String of(int row);
    }

    private static LeafWriter text(FieldVector v, Text text) {
        return HoglakeParquetWriter.of(v, (rc, r) -> rc.addBinary(Binary.fromString(text.of(r))));
    }

    private static LeafWriter uuidFromText(VarCharVector v) {
        long[] bits = new long[2];
        return new LeafWriter() {
            @Override
            public boolean isNull(int row) {
                return v.isNull(row) || !UuidText.parseInto(new String(v.get(row), StandardCharsets.UTF_8), bits);
            }

            @Override
            public void write(RecordConsumer consumer, int row) {
                UuidText.parseInto(new String(v.get(row), StandardCharsets.UTF_8), bits);
                consumer.addBinary(Binary.fromConstantByteArray(ByteBuffer.allocate(16).putLong(bits[0])
                        .putLong(bits[1]).array()));
            }
        };
    }
}
