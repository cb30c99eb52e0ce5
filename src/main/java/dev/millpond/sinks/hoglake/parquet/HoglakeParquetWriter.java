package dev.millpond.sinks.hoglake.parquet;

import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnStats;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.types.Conversions;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Encodes Arrow rows as one parquet file the way hoglake registers them: every column carries its table field id,
 * the annotations readers bind through (UUID, TIMESTAMP with the UTC flag), SNAPPY pages, and footer statistics,
 * which are read back per leaf into hoglake column stats with bounds in Iceberg's single-value serialization.
 */
public final class HoglakeParquetWriter {

    /** A destination column: its name, table field id, type and nullability (top-level columns, in ordinal order). */
    public record Column(String name, long fieldId, HoglakeColumnType type, boolean nullable) {
    }

    /** An encoded file: the bytes to upload, and what its registration says about them. */
    public record EncodedFile(byte[] bytes, long recordCount, long footerSize, List<ColumnStats> columnStats) {
    }

    private HoglakeParquetWriter() {
    }

    /** The parquet schema: one primitive per column, each with its field id. */
    public static MessageType schema(List<Column> columns) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (Column c : columns) {
            Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> p = Types.primitive(c.type().physical(),
                    c.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED);
            if (c.type().annotation() != null) {
                p = p.as(c.type().annotation());
            }
            if (c.type() == HoglakeColumnType.UUID) {
                p = p.length(16);
            }
            message.addField(p.id(Math.toIntExact(c.fieldId())).named(c.name()));
        }
        return message.named("schema");
    }

    /**
     * Writes the rows of {@code batches} (all rows when {@code rows} is null, else the listed row indexes of each
     * batch, in order). A column absent from a batch is written as nulls; a vector whose Arrow type does not fit its
     * column fails with {@link UnsupportedColumnTypeException}.
     */
    public static EncodedFile write(List<Column> columns, List<VectorSchemaRoot> batches, List<int[]> rows) {
        return write(columns, batches, rows, Map.of(), Set.of());
    }

    /**
     * As {@link #write(List, List, List)}, with {@code constants} giving the one value of a column every row shares
     * (in the column's parquet form: Long for long and timestamps) and {@code leftOut} naming batch columns written
     * as nulls instead (their batch type cannot be written into the live column).
     */
    public static EncodedFile write(List<Column> columns, List<VectorSchemaRoot> batches, List<int[]> rows,
            Map<String, Object> constants, Set<String> leftOut) {
        MessageType schema = schema(columns);
        RowWriteSupport support = new RowWriteSupport(schema, columns, constants, leftOut);
        ByteArrayOutputFile out = new ByteArrayOutputFile();
        long written = 0;
        ParquetWriter<Integer> writer = null;
        try {
            writer = new Builder(out, support)
                    .withConf(new PlainParquetConfiguration())
                    .withCodecFactory(SnappyCodecs.INSTANCE)
                    .withCompressionCodec(CompressionCodecName.SNAPPY)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .build();
            for (int b = 0; b < batches.size(); b++) {
                VectorSchemaRoot root = batches.get(b);
                support.bind(root);
                int[] selected = rows == null ? null : rows.get(b);
                int n = selected == null ? root.getRowCount() : selected.length;
                for (int i = 0; i < n; i++) {
                    writer.write(selected == null ? i : selected[i]);
                }
                written += n;
            }
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] bytes = out.toByteArray();
        return new EncodedFile(bytes, written, footerSize(bytes), stats(columns, writer.getFooter().getBlocks()));
    }

    /** The 4-byte little-endian FileMetaData length just before the trailing {@code PAR1} magic. */
    static long footerSize(byte[] file) {
        return Integer.toUnsignedLong(ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
    }

    // ---- footer statistics → hoglake column stats ----

    private static List<ColumnStats> stats(List<Column> columns, List<BlockMetaData> blocks) {
        List<ColumnStats> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            long values = 0;
            long nulls = 0;
            Object min = null;
            Object max = null;
            boolean boundsKnown = true;
            for (BlockMetaData block : blocks) {
                ColumnChunkMetaData chunk = block.getColumns().get(i);
                values += chunk.getValueCount();
                Statistics<?> s = chunk.getStatistics();
                if (s == null || s.isEmpty()) {
                    boundsKnown = false;
                    continue;
                }
                nulls += s.getNumNulls();
                if (s.hasNonNullValue()) {
                    min = min == null ? s.genericGetMin() : lesser(s, min, s.genericGetMin());
                    max = max == null ? s.genericGetMax() : greater(s, max, s.genericGetMax());
                }
            }
            byte[] lower = boundsKnown && min != null ? bound(c.type(), min, true) : null;
            byte[] upper = boundsKnown && max != null ? bound(c.type(), max, false) : null;
            if (lower == null || upper == null) {
                lower = null;
                upper = null;
            }
            out.add(new ColumnStats(c.fieldId(), values, nulls, lower, upper));
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object lesser(Statistics s, Object a, Object b) {
        return s.comparator().compare(a, b) <= 0 ? a : b;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object greater(Statistics s, Object a, Object b) {
        return s.comparator().compare(a, b) >= 0 ? a : b;
    }

    /**
     * One bound in the Iceberg single-value serialization of the column's mapped Iceberg type. Floating zeros are
     * canonicalized (lower -0.0, upper +0.0): Iceberg compares in natural order, where -0.0 &lt; +0.0, so a file
     * holding 0.0 must never read as the empty range (+0.0, -0.0). A NaN is never a bound.
     */
    static byte[] bound(HoglakeColumnType type, Object footerValue, boolean lower) {
        Object value = switch (type) {
            case STRING, JSON -> ((Binary) footerValue).toStringUsingUTF8();
            case BINARY -> ByteBuffer.wrap(((Binary) footerValue).getBytes());
            case UUID -> {
                ByteBuffer b = ByteBuffer.wrap(((Binary) footerValue).getBytes());
                yield new java.util.UUID(b.getLong(), b.getLong());
            }
            case FLOAT -> {
                float f = (Float) footerValue;
                yield f == 0.0f ? (lower ? -0.0f : 0.0f) : f;
            }
            case DOUBLE -> {
                double d = (Double) footerValue;
                yield d == 0.0 ? (lower ? -0.0 : 0.0) : d;
            }
            default -> footerValue;
        };
        if (value instanceof Float f && f.isNaN() || value instanceof Double d && d.isNaN()) {
            return null;
        }
        ByteBuffer buf = Conversions.toByteBuffer(type.icebergType(), value);
        byte[] bytes = new byte[buf.remaining()];
        buf.duplicate().get(bytes);
        return bytes;
    }

    // ---- rows ----

    /** Writes row {@code row} of the bound batch; each leaf reads its own vector. */
    private static final class RowWriteSupport extends WriteSupport<Integer> {
        private final MessageType schema;
        private final List<Column> columns;
        private final LeafWriter[] leaves;
        private RecordConsumer consumer;

        private final Map<String, Object> constants;
        private final Set<String> leftOut;

        RowWriteSupport(MessageType schema, List<Column> columns, Map<String, Object> constants,
                Set<String> leftOut) {
            this.schema = schema;
            this.columns = columns;
            this.leaves = new LeafWriter[columns.size()];
            this.constants = constants;
            this.leftOut = leftOut;
        }

        void bind(VectorSchemaRoot root) {
            for (int i = 0; i < columns.size(); i++) {
                Column c = columns.get(i);
                if (constants.containsKey(c.name())) {
                    leaves[i] = constant(c, constants.get(c.name()));
                    continue;
                }
                FieldVector v = leftOut.contains(c.name()) ? null : root.getVector(c.name());
                leaves[i] = v == null ? null : leaf(c, v);
                if (v == null && !c.nullable()) {
                    throw new UnsupportedColumnTypeException("required column '" + c.name() + "' is missing");
                }
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            throw new UnsupportedOperationException("configured through ParquetConfiguration, without Hadoop");
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(Integer row) {
            consumer.startMessage();
            for (int i = 0; i < leaves.length; i++) {
                LeafWriter leaf = leaves[i];
                if (leaf != null && !leaf.isNull(row)) {
                    String name = columns.get(i).name();
                    consumer.startField(name, i);
                    leaf.write(consumer, row);
                    consumer.endField(name, i);
                } else if (!columns.get(i).nullable()) {
                    throw new UnsupportedColumnTypeException("null in required column '" + columns.get(i).name()
                            + "'");
                }
            }
            consumer.endMessage();
        }
    }

    interface LeafWriter {
        boolean isNull(int row);

        void write(RecordConsumer consumer, int row);
    }

    /** Whether a batch vector of this type can be written into the column (directly, or cast to the live type). */
    public static boolean writable(Column c, FieldVector vector) {
        try {
            leaf(c, vector);
            return true;
        } catch (UnsupportedColumnTypeException e) {
            return false;
        }
    }

    private static LeafWriter constant(Column c, Object value) {
        ValueWriter w = switch (c.type()) {
            case LONG, TIMESTAMP, TIMESTAMPTZ -> (rc, r) -> rc.addLong((Long) value);
            case STRING, JSON -> (rc, r) -> rc.addBinary(Binary.fromString((String) value));
            default -> throw new UnsupportedColumnTypeException("no constant " + c.type().wireName() + " column");
        };
        return new LeafWriter() {
            @Override
            public boolean isNull(int row) {
                return value == null;
            }

            @Override
            public void write(RecordConsumer consumer, int row) {
                w.write(consumer, row);
            }
        };
    }

    private static LeafWriter leaf(Column c, FieldVector vector) {
        FieldVector v = vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
        if (v instanceof NullVector) {
            return new LeafWriter() {
                @Override
                public boolean isNull(int row) {
                    return true;
                }

                @Override
                public void write(RecordConsumer consumer, int row) {
                    throw new IllegalStateException("a null vector has no values");
                }
            };
        }
        LeafWriter w = exact(c, v);
        if (w == null) {
            w = LiveTypeCasts.cast(c.type(), v);
        }
        if (w == null) {
            throw new UnsupportedColumnTypeException("column '" + c.name() + "' is " + c.type().wireName()
                    + " in the table but " + vector.getField().getType() + " in the batch");
        }
        return w;
    }

    /** The batch vector's Arrow type is the column's own. */
    private static LeafWriter exact(Column c, FieldVector v) {
        return switch (c.type()) {
            case BOOLEAN -> v instanceof BitVector b ? of(b, (rc, r) -> rc.addBoolean(b.get(r) == 1)) : null;
            case INT -> v instanceof IntVector x ? of(x, (rc, r) -> rc.addInteger(x.get(r))) : null;
            case LONG -> v instanceof BigIntVector x ? of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            case FLOAT -> v instanceof Float4Vector x ? of(x, (rc, r) -> rc.addFloat(x.get(r))) : null;
            case DOUBLE -> v instanceof Float8Vector x ? of(x, (rc, r) -> rc.addDouble(x.get(r))) : null;
            case DATE -> v instanceof DateDayVector x ? of(x, (rc, r) -> rc.addInteger(x.get(r))) : null;
            case TIMESTAMP -> v instanceof TimeStampMicroVector x ? of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            case TIMESTAMPTZ -> v instanceof TimeStampMicroTZVector x ? of(x, (rc, r) -> rc.addLong(x.get(r))) : null;
            case STRING, JSON -> v instanceof VarCharVector x
                    ? of(x, (rc, r) -> rc.addBinary(Binary.fromConstantByteArray(x.get(r)))) : null;
            case BINARY -> v instanceof VarBinaryVector x
                    ? of(x, (rc, r) -> rc.addBinary(Binary.fromConstantByteArray(x.get(r)))) : null;
            case UUID -> v instanceof FixedSizeBinaryVector x && x.getByteWidth() == 16
                    ? of(x, (rc, r) -> rc.addBinary(Binary.fromConstantByteArray(x.get(r)))) : null;
        };
    }

    interface ValueWriter {
        void write(RecordConsumer consumer, int row);
    }

    static LeafWriter of(FieldVector vector, ValueWriter value) {
        return new LeafWriter() {
            @Override
            public boolean isNull(int row) {
                return vector.isNull(row);
            }

            @Override
            public void write(RecordConsumer consumer, int row) {
                value.write(consumer, row);
            }
        };
    }

    private static final class Builder extends ParquetWriter.Builder<Integer, Builder> {
        private final WriteSupport<Integer> support;

        Builder(OutputFile file, WriteSupport<Integer> support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Integer> getWriteSupport(Configuration conf) {
            throw new UnsupportedOperationException("configured through ParquetConfiguration, without Hadoop");
        }

        @Override
        protected WriteSupport<Integer> getWriteSupport(ParquetConfiguration conf) {
            return support;
        }
    }
}
