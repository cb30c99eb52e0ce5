package dev.millpond.sinks.hoglake.schema;

import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.vocabulary.UuidType;
import dev.millpond.vocabulary.ColumnNames;
import dev.millpond.vocabulary.Identifiers;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which batch columns the hoglake sink sends, and as which hoglake type. A payload key that cannot be a column is
 * dropped per column rather than sent, so one poison producer key cannot wedge a partition: names outside the
 * identifier rule shared with the DuckLake sink (hyphens included, although hoglake would take them) and names
 * longer than the server's 128 characters are unsafe; {@code _inserted_at} (the sink's own column) and the
 * {@code _hog} prefix (reserved by the server) are reserved. Hoglake itself would keep {@code a} and {@code A} as two
 * columns, which the engines reading the table cannot tell apart, so keys differing only in case follow the rule both
 * sinks share ({@link ColumnNames}): the first spelling is sent, later ones are dropped as duplicates.
 *
 * @param sent    the columns to send, with their hoglake type
 * @param dropped the names dropped, with why
 */
public record PayloadColumns(List<Sent> sent, List<Dropped> dropped) {

    static final int MAX_NAME_CHARS = 128;
    public static final String INSERTED_AT = "_inserted_at";
    static final String RESERVED_PREFIX = "_hog";

    public record Sent(Field field, HoglakeColumnType type) {
        public String name() {
            return field.getName();
        }

        /** The same column under another spelling (the live table's). */
        Sent named(String name) {
            return new Sent(new Field(name, field.getFieldType(), field.getChildren()), type);
        }
    }

    public record Dropped(String name, Optional<SkipReason> reason, String why) {
    }

    public static PayloadColumns of(Schema schema) {
        List<Sent> sent = new ArrayList<>();
        List<Dropped> dropped = new ArrayList<>();
        ColumnNames.Spellings spellings = new ColumnNames.Spellings();
        for (Field field : schema.getFields()) {
            String name = field.getName();
            Optional<SkipReason> reason = dropReason(name);
            if (reason.isEmpty() && !spellings.first(name)) {
                reason = Optional.of(SkipReason.DUPLICATE_FIELD_NAME);
            }
            if (reason.isPresent()) {
                dropped.add(new Dropped(name, reason, reason.get().label()));
                continue;
            }
            Optional<HoglakeColumnType> type = typeOf(field.getType());
            if (type.isEmpty()) {
                dropped.add(new Dropped(name, Optional.empty(), "no hoglake type for " + field.getType()));
            } else {
                sent.add(new Sent(field, type.get()));
            }
        }
        return new PayloadColumns(List.copyOf(sent), List.copyOf(dropped));
    }

    /** Empty when a key of this name can become a column. */
    public static Optional<SkipReason> dropReason(String name) {
        if (name.length() > MAX_NAME_CHARS || !Identifiers.isSafe(name)) {
            return Optional.of(SkipReason.UNSAFE_FIELD_NAME);
        }
        if (name.equals(INSERTED_AT) || name.startsWith(RESERVED_PREFIX)) {
            return Optional.of(SkipReason.RESERVED_FIELD_NAME);
        }
        return Optional.empty();
    }

    /**
     * The hoglake type a new column of this Arrow type is created with. The converter produces int64, float64, bool,
     * utf8 (all-null columns included), timestamp[us, UTC] and the uuid extension; the rest is here so a batch from
     * elsewhere (tests, benchmarks) is not refused for no reason.
     */
    static Optional<HoglakeColumnType> typeOf(ArrowType type) {
        if (type instanceof UuidType) {
            return Optional.of(HoglakeColumnType.UUID);
        }
        HoglakeColumnType t = null;
        if (type instanceof ArrowType.Int i && i.getIsSigned()) {
            t = i.getBitWidth() == 64 ? HoglakeColumnType.LONG : i.getBitWidth() == 32 ? HoglakeColumnType.INT : null;
        } else if (type instanceof ArrowType.FloatingPoint f) {
            t = f.getPrecision() == FloatingPointPrecision.DOUBLE ? HoglakeColumnType.DOUBLE
                    : f.getPrecision() == FloatingPointPrecision.SINGLE ? HoglakeColumnType.FLOAT : null;
        } else if (type instanceof ArrowType.Bool) {
            t = HoglakeColumnType.BOOLEAN;
        } else if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.Null) {
            t = HoglakeColumnType.STRING;
        } else if (type instanceof ArrowType.Timestamp ts && ts.getUnit() == TimeUnit.MICROSECOND) {
            t = ts.getTimezone() == null ? HoglakeColumnType.TIMESTAMP : HoglakeColumnType.TIMESTAMPTZ;
        } else if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
            t = HoglakeColumnType.DATE;
        } else if (type instanceof ArrowType.FixedSizeBinary b && b.getByteWidth() == 16) {
            t = HoglakeColumnType.UUID;
        } else if (type instanceof ArrowType.Binary) {
            t = HoglakeColumnType.BINARY;
        }
        return Optional.ofNullable(t);
    }
}
