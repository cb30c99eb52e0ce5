package dev.millpond.stages;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * timestamptz: microseconds, zone UTC. Strings per {@link TimestampText}; an int64 column is epoch microseconds;
 * another timestamp column is rescaled (a naive one is taken as UTC). A double or bool column has no meaning as an
 * instant and is nulled whole with column_coercion rather than crashing as the original did.
 */
final class ToTimestamptz extends ColumnCoercion {
    static final String ZONE = "UTC";
    static final ArrowType TYPE = new ArrowType.Timestamp(TimeUnit.MICROSECOND, ZONE);

    ToTimestamptz() {
        super(TYPE, (name, allocator) -> new TimeStampMicroTZVector(name, allocator, ZONE));
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        TimeStampMicroTZVector out = (TimeStampMicroTZVector) target;
        if (source instanceof VarCharVector text) {
            return eachText(text, rows, (i, s) -> {
                long micros = TimestampText.parseMicros(s);
                if (micros != TimestampText.INVALID) {
                    out.set(i, micros);
                }
                return micros != TimestampText.INVALID;
            });
        }
        if (source instanceof BigIntVector ints) {
            return eachLong(ints, rows, (i, v) -> {
                out.set(i, v);
                return true;
            });
        }
        if (source instanceof TimeStampVector ts) {
            return fromTimestamp(ts, out, rows);
        }
        return nullAll(source, rows);
    }

    private static int fromTimestamp(TimeStampVector ts, TimeStampMicroTZVector out, int rows) {
        TimeUnit unit = ((ArrowType.Timestamp) ts.getField().getType()).getUnit();
        int nulled = 0;
        for (int i = 0; i < rows; i++) {
            if (ts.isNull(i)) {
                continue;
            }
            long v = ts.get(i);
            switch (unit) {
                case SECOND -> {
                    if (Math.abs(v) > Long.MAX_VALUE / 1_000_000L) {
                        nulled++;
                        continue;
                    }
                    v *= 1_000_000L;
                }
                case MILLISECOND -> {
                    if (Math.abs(v) > Long.MAX_VALUE / 1_000L) {
                        nulled++;
                        continue;
                    }
                    v *= 1_000L;
                }
                case NANOSECOND -> v = Math.floorDiv(v, 1_000L);
                default -> {
                }
            }
            out.set(i, v);
        }
        return nulled;
    }
}
