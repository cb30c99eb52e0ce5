package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Brings the poll batches pending for one flush to ONE schema by the same type rules as a poll batch, replacing the
 * original's concatenation, which raised on any type conflict.
 *
 * <ul>
 *   <li>Columns: the union in first-appearance order across the batches, in the order given.</li>
 *   <li>Type per column, from the batches in which the column holds at least one non-null value: one type
 *       → that type; only BIGINT and DOUBLE → DOUBLE (BIGINT values converted); anything else → VARCHAR
 *       with each value's JSON text ({@code 1}, {@code 2.5} in {@link DoubleText}'s float format,
 *       {@code true}; existing VARCHAR text is kept). A column that is null in every batch keeps its type if
 *       all batches agree on it, else becomes VARCHAR. A batch missing the column, or holding only nulls in
 *       it, gets nulls of the final type.</li>
 *   <li>Types the converter never produces (timestamps, uuid extension types, ... added by later stages)
 *       pass through when every batch has the same type; a conflict involving them falls back to VARCHAR
 *       via {@code getObject(i).toString()} ({@code byte[]} values as lower-case hex).</li>
 *   <li>Fast path: when every batch already has the same schema the batches are passed through untouched;
 *       otherwise a batch whose schema already equals the unified one is passed through, and in the others
 *       every column that already has its final type is moved with a zero-copy transfer. Nothing is ever
 *       concatenated.</li>
 * </ul>
 *
 * <p><b>Ownership:</b> {@link #unify(List)} takes ownership of every root in the list, on success and on
 * failure alike; the caller must not use or close them afterwards. The returned {@link UnifiedBatches} owns
 * the output roots (some of which may be the very input objects) until it is closed.
 *
 * <p>Known limit: a batch in which an int and a float met was already DOUBLE before unification, so if a
 * later batch forces the column to VARCHAR, that batch's ints read as {@code 1.0}, not {@code 1}.
 */
public final class BatchUnifier {
    private final BufferAllocator allocator;

    /** @param allocator allocator for every vector the unifier creates */
    public BatchUnifier(BufferAllocator allocator) {
        this.allocator = allocator;
    }

    /**
     * Unifies the batches of one flush. Takes ownership of every root in {@code batches} (null entries and
     * roots without rows or columns are closed and dropped).
     */
    public UnifiedBatches unify(List<VectorSchemaRoot> batches) {
        List<VectorSchemaRoot> inputs = new ArrayList<>(batches.size());
        List<VectorSchemaRoot> outputs = new ArrayList<>(batches.size());
        try {
            for (VectorSchemaRoot r : batches) {
                if (r == null) {
                    continue;
                }
                if (r.getRowCount() == 0 || r.getFieldVectors().isEmpty()) {
                    r.close();
                } else {
                    inputs.add(r);
                }
            }
            if (inputs.isEmpty()) {
                return new UnifiedBatches(new Schema(List.of()), outputs);
            }
            Schema first = inputs.get(0).getSchema();
            boolean same = true;
            for (int i = 1; i < inputs.size() && same; i++) {
                same = inputs.get(i).getSchema().equals(first);
            }
            if (same) {
                outputs.addAll(inputs);
                inputs.clear();
                return new UnifiedBatches(first, outputs);
            }
            Schema unified = plan(inputs);
            for (int i = 0; i < inputs.size(); i++) {
                VectorSchemaRoot in = inputs.get(i);
                if (in.getSchema().equals(unified)) {
                    outputs.add(in);
                } else {
                    outputs.add(conform(in, unified));
                    in.close();
                }
                inputs.set(i, null);
            }
            return new UnifiedBatches(unified, outputs);
        } catch (RuntimeException | Error e) {
            closeQuietly(e, inputs);
            closeQuietly(e, outputs);
            throw e;
        }
    }

    // --------------------------------------------------------------------------------------------- planning

    private static final class ColumnPlan {
        final String name;
        Field firstField;
        boolean sameFieldEverywhere = true;
        boolean sameTypeEverywhere = true;
        int batchesWithColumn;
        /** Types of the batches in which the column has at least one non-null value, first-seen order. */
        final Set<ArrowType> nonNullTypes = new LinkedHashSet<>();

        ColumnPlan(String name) {
            this.name = name;
        }

        void observe(Field field, FieldVector v) {
            batchesWithColumn++;
            if (firstField == null) {
                firstField = field;
            } else {
                sameFieldEverywhere &= firstField.equals(field);
                sameTypeEverywhere &= firstField.getType().equals(field.getType());
            }
            if (v.getNullCount() < v.getValueCount()) {
                nonNullTypes.add(field.getType());
            }
        }

        Field decide(int batchCount) {
            if (sameFieldEverywhere && batchesWithColumn == batchCount) {
                return firstField;
            }
            ArrowType type;
            if (nonNullTypes.isEmpty()) {
                type = sameTypeEverywhere ? firstField.getType() : Vectors.VARCHAR;
            } else if (nonNullTypes.size() == 1) {
                type = nonNullTypes.iterator().next();
            } else if (nonNullTypes.size() == 2
                    && nonNullTypes.contains(Vectors.BIGINT)
                    && nonNullTypes.contains(Vectors.DOUBLE)) {
                type = Vectors.DOUBLE;
            } else {
                type = Vectors.VARCHAR;
            }
            if (type.equals(firstField.getType())) {
                FieldType ft = firstField.getFieldType();
                return new Field(name, new FieldType(true, type, ft.getDictionary(), ft.getMetadata()),
                        firstField.getChildren());
            }
            return Vectors.nullableField(name, type);
        }
    }

    private static Schema plan(List<VectorSchemaRoot> inputs) {
        LinkedHashMap<String, ColumnPlan> plans = new LinkedHashMap<>();
        for (VectorSchemaRoot r : inputs) {
            for (FieldVector v : r.getFieldVectors()) {
                Field f = v.getField();
                plans.computeIfAbsent(f.getName(), ColumnPlan::new).observe(f, v);
            }
        }
        List<Field> fields = new ArrayList<>(plans.size());
        for (ColumnPlan p : plans.values()) {
            fields.add(p.decide(inputs.size()));
        }
        return new Schema(fields);
    }

    // --------------------------------------------------------------------------------------------- conforming

    /** A new root with {@code unified}'s schema holding {@code in}'s rows; {@code in} is left for the caller to close. */
    private VectorSchemaRoot conform(VectorSchemaRoot in, Schema unified) {
        int rows = in.getRowCount();
        List<FieldVector> out = new ArrayList<>(unified.getFields().size());
        try {
            for (Field f : unified.getFields()) {
                FieldVector src = in.getVector(f.getName());
                out.add(conformColumn(src, f, rows));
            }
            return new VectorSchemaRoot(unified.getFields(), out, rows);
        } catch (RuntimeException | Error e) {
            closeQuietly(e, out);
            throw e;
        }
    }

    private FieldVector conformColumn(FieldVector src, Field target, int rows) {
        if (src == null || src.getNullCount() == rows) {
            return Vectors.allNulls(target, allocator, rows);
        }
        ArrowType type = target.getType();
        if (src.getField().getType().equals(type)) {
            FieldVector dst = target.createVector(allocator);
            try {
                src.makeTransferPair(dst).transfer();
                return dst;
            } catch (RuntimeException | Error e) {
                dst.close();
                throw e;
            }
        }
        if (type.equals(Vectors.DOUBLE) && src instanceof BigIntVector ints) {
            return toDouble(ints, target, rows);
        }
        if (type.equals(Vectors.VARCHAR)) {
            return toText(src, target, rows);
        }
        throw new IllegalStateException("cannot bring column " + target.getName() + " from "
                + src.getField().getType() + " to " + type);
    }

    private FieldVector toDouble(BigIntVector src, Field target, int rows) {
        Float8Vector v = (Float8Vector) target.createVector(allocator);
        try {
            v.allocateNew(rows);
            ArrowBuf data = v.getDataBuffer();
            ArrowBuf validity = v.getValidityBuffer();
            validity.setZero(0, validity.capacity());
            for (int i = 0; i < rows; i++) {
                if (!src.isNull(i)) {
                    data.setDouble((long) i * 8, (double) src.get(i));
                    BitVectorHelper.setBit(validity, i);
                }
            }
            v.setValueCount(rows);
            return v;
        } catch (RuntimeException | Error e) {
            v.close();
            throw e;
        }
    }

    /** Renders every value as its JSON text (strings unquoted), the way {@link JsonToArrow} does for mixed columns. */
    private FieldVector toText(FieldVector src, Field target, int rows) {
        ByteBuf text = new ByteBuf(rows * 8);
        long[] spans = new long[rows];
        Arrays.fill(spans, Vectors.NULL_SPAN);
        for (int i = 0; i < rows; i++) {
            if (src.isNull(i)) {
                continue;
            }
            int start = text.length;
            if (src instanceof BigIntVector v) {
                text.putLong(v.get(i));
            } else if (src instanceof Float8Vector v) {
                text.putDouble(v.get(i));
            } else if (src instanceof BitVector v) {
                text.put(v.get(i) != 0 ? JsonText.TRUE : JsonText.FALSE);
            } else if (src instanceof VarCharVector v) {
                int from = v.getStartOffset(i);
                int len = v.getEndOffset(i) - from;
                text.ensure(len);
                v.getDataBuffer().getBytes(from, text.data, text.length, len);
                text.length += len;
            } else {
                Object o = src.getObject(i);
                String s = o instanceof byte[] b ? HexFormat.of().formatHex(b) : Objects.toString(o);
                text.put(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            spans[i] = Vectors.span(start, text.length - start);
        }
        return Vectors.varChar(target, allocator, rows, text, spans);
    }

    private static void closeQuietly(Throwable primary, List<? extends AutoCloseable> closeables) {
        try {
            AutoCloseables.close(closeables);
        } catch (Exception suppressed) {
            primary.addSuppressed(suppressed);
        }
    }
}
