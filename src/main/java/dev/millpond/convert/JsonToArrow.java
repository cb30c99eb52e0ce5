package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Converts one poll batch of Kafka values (JSON objects as UTF-8 bytes) into an Arrow batch
 * (docs/decisions.md, "Type inference is order-independent").
 *
 * <ul>
 *   <li>Skipped (counted in {@link ConvertedBatch#failed()}, first 200 bytes logged at WARN, at most one line
 *       per second): malformed JSON, invalid UTF-8, a byte-order mark, NaN/Infinity, an empty payload, any
 *       top-level value that is not an object, trailing data after the object, and strings holding a lone
 *       surrogate escape (not representable as UTF-8).</li>
 *   <li>Duplicate keys: the last one wins. Columns: union of keys in first-appearance order.</li>
 *   <li>int → BIGINT, float → DOUBLE, bool → BOOLEAN, string → VARCHAR, object/array → VARCHAR holding compact
 *       JSON (no spaces, key order kept, raw UTF-8, floats in {@link DoubleText orjson's format}; integers
 *       inside nested values keep their exact source text).</li>
 *   <li>Per column: int + float → DOUBLE; null-only + T → T; all null → VARCHAR of nulls; any other mix →
 *       VARCHAR holding each value's JSON text ({@code true}, {@code 1}, {@code 2.5}, strings unquoted, nested
 *       as compact JSON). An integer outside int64 keeps its exact decimal text, which makes the column
 *       VARCHAR; so does a float literal that overflows a double (e.g. {@code 1e400}), kept as its source
 *       text rather than becoming Infinity.</li>
 *   <li>A batch in which no record has any key (only {@code {}} and failures) yields no root: 0 rows, all
 *       values failed.</li>
 * </ul>
 *
 * <p>One pass per record into per-column typed storage ({@link JsonColumn}, which decides each column's type at the
 * end of the batch and writes the Arrow buffers directly). Most records are read straight from their bytes by
 * {@link DirectRecordReader}, which copies nested values already in compact form ({@link CanonicalNestedCopy}); a
 * record outside its simple subset (escaped keys, big integers, non-canonical escapes or repeated keys in a nested
 * value, and every malformed record) is rolled back and read by a Jackson {@link JsonParser} instead, with nested
 * values written as compact JSON text ({@link NestedJsonWriter}, with {@link NestedKeyScopes} spotting repeated
 * nested keys). Skipped values are logged by {@link UnparseableWarnings}. An instance is not thread-safe; use one per
 * consuming thread.
 */
public final class JsonToArrow {

    /**
     * Strict RFC 8259 parsing (no NaN/Infinity, comments, single quotes, leading zeros...). Field names are
     * canonicalized by the factory's symbol table, so repeated keys are the same String instance.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            .build();

    private static final String NESTED_DUPLICATE = "nested duplicate key";

    private final BufferAllocator allocator;
    private final NestedJsonWriter nested = new NestedJsonWriter();
    private final DirectRecordReader direct = new DirectRecordReader(FACTORY.streamReadConstraints());
    private final DirectRecordReader.Columns touchColumns = this::touch;
    /**
     * Read records straight from their bytes where they allow it (most do) and with Jackson otherwise; false reads every
     * record with Jackson (the reference the direct path is tested against).
     */
    private final boolean readDirect;
    /** Records read by the direct reader so far (tests check that it is exercised). */
    long directReads;
    private final UnparseableWarnings warnings;
    private boolean nestedSlowPath;

    // Per-batch state.
    private final HashMap<String, JsonColumn> byName = new HashMap<>();
    private final ArrayList<JsonColumn> columns = new ArrayList<>();
    private JsonColumn[] touched = new JsonColumn[64];
    private int touchedCount;
    private int maxRows;

    /**
     * Logs no payload bytes for a skipped value.
     *
     * @param allocator every Arrow buffer of the produced batches is allocated from it
     */
    public JsonToArrow(BufferAllocator allocator) {
        this(allocator, false);
    }

    /**
     * @param allocator      every Arrow buffer of the produced batches is allocated from it
     * @param payloadPreview whether the warning for a skipped value carries its first bytes (personal data, shipped
     *                       wherever the logs go)
     */
    public JsonToArrow(BufferAllocator allocator, boolean payloadPreview) {
        this(allocator, true, payloadPreview);
    }

    JsonToArrow(BufferAllocator allocator, boolean readDirect, boolean payloadPreview) {
        this.allocator = allocator;
        this.readDirect = readDirect && DIRECT_READ_SAFE;
        this.warnings = new UnparseableWarnings(payloadPreview);
    }

    /**
     * The direct reader does not count tokens or document length, and skipping a string it copies is not measured
     * against the string-length limit: it is used only where those limits cannot bite.
     */
    private static final boolean DIRECT_READ_SAFE = FACTORY.streamReadConstraints().getMaxDocumentLength() <= 0
            && FACTORY.streamReadConstraints().getMaxTokenCount() <= 0;
    private static final int MAX_DIRECT_RECORD = FACTORY.streamReadConstraints().getMaxStringLength();

    /**
     * Converts one poll batch. The returned batch (and its root) belongs to the caller.
     *
     * @param values the non-null Kafka values of one poll, in order
     */
    public ConvertedBatch convert(List<byte[]> values) {
        byName.clear();
        columns.clear();
        maxRows = values.size();
        int rows = 0;
        List<ConvertedBatch.Failure> failures = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            byte[] value = values.get(i);
            String reason = parseRecord(value, rows);
            if (reason == null) {
                rows++;
            } else {
                failures.add(new ConvertedBatch.Failure(i, reason));
                warnings.warn(value, reason);
            }
        }
        try {
            if (columns.isEmpty() || rows == 0) {
                return new ConvertedBatch(null, 0, values.size(), 0, failures);
            }
            VectorSchemaRoot root = build(rows);
            return new ConvertedBatch(root, rows, values.size() - rows, ArrowSizes.nbytes(root), failures);
        } finally {
            for (JsonColumn c : columns) {
                recycle(c);
            }
            byName.clear();
            columns.clear();
        }
    }

    // ------------------------------------------------------------------------------------------- parsing

    /** Parses one value into row {@code row}; returns null on success, else why it was skipped (row rolled back). */
    private String parseRecord(byte[] value, int row) {
        if (value == null) {
            return "null value";
        }
        if (value.length == 0) {
            return "empty payload";
        }
        if (value.length >= 3 && (value[0] & 0xFF) == 0xEF && (value[1] & 0xFF) == 0xBB && (value[2] & 0xFF) == 0xBF) {
            return "byte-order mark";
        }
        if (!StrictUtf8.isValidWithoutLeadingNul(value)) {
            return "not valid UTF-8";
        }
        int columnsBefore = columns.size();
        if (readDirect && value.length <= MAX_DIRECT_RECORD) {
            touchedCount = 0;
            if (direct.read(value, row, touchColumns)) {
                directReads++;
                return null;
            }
            rollback(row, columnsBefore); // outside the simple subset, or malformed: Jackson decides
        }
        String reason = parseOnce(value, row, columnsBefore, false);
        if (reason == NESTED_DUPLICATE) {
            // Rare: a nested object repeats a key. Parse the record again, building nested values as trees.
            reason = parseOnce(value, row, columnsBefore, true);
        }
        return reason;
    }

    private String parseOnce(byte[] value, int row, int columnsBefore, boolean slow) {
        touchedCount = 0;
        nestedSlowPath = slow;
        String reason;
        try (JsonParser p = FACTORY.createParser(value)) {
            reason = parseObject(p, row);
        } catch (NestedKeyScopes.DuplicateNestedKey e) {
            reason = NESTED_DUPLICATE;
        } catch (IOException | RuntimeException e) {
            reason = e.getClass().getSimpleName() + ": " + UnparseableWarnings.firstLine(e.getMessage());
        }
        if (reason != null) {
            rollback(row, columnsBefore);
        }
        return reason;
    }

    private String parseObject(JsonParser p, int row) throws IOException {
        JsonToken t = p.nextToken();
        if (t != JsonToken.START_OBJECT) {
            return t == null ? "no JSON value" : "top-level value is not an object (" + t.asString() + ")";
        }
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            JsonColumn c = touch(p.currentName());
            t = p.nextToken();
            switch (t) {
                case VALUE_NULL -> c.set(row, JsonColumn.K_NULL, 0);
                case VALUE_TRUE -> c.set(row, JsonColumn.K_BOOL, 1);
                case VALUE_FALSE -> c.set(row, JsonColumn.K_BOOL, 0);
                case VALUE_NUMBER_INT -> {
                    JsonParser.NumberType nt = p.getNumberType();
                    if (nt == JsonParser.NumberType.INT || nt == JsonParser.NumberType.LONG) {
                        c.set(row, JsonColumn.K_LONG, p.getLongValue());
                    } else {
                        // Beyond int64: keep the exact decimal text, never a rounded DOUBLE.
                        c.setText(row, p);
                    }
                }
                case VALUE_NUMBER_FLOAT -> {
                    double d = p.getDoubleValue();
                    if (Double.isInfinite(d)) {
                        c.setText(row, p); // overflowing literal: keep the source text, never Infinity
                    } else {
                        c.set(row, JsonColumn.K_DOUBLE, Double.doubleToRawLongBits(d));
                    }
                }
                case VALUE_STRING -> c.setText(row, p);
                case START_OBJECT, START_ARRAY -> {
                    ByteBuf text = c.text;
                    int start = text.length;
                    if (nestedSlowPath) {
                        nested.writeTree(p, text);
                    } else {
                        nested.writeCompact(p, text);
                    }
                    c.set(row, JsonColumn.K_TEXT, Vectors.span(start, text.length - start));
                }
                default -> {
                    return "unexpected token " + t;
                }
            }
        }
        if (t != JsonToken.END_OBJECT) {
            return "unexpected token " + t;
        }
        if (p.nextToken() != null) {
            return "trailing data after the object";
        }
        return null;
    }

    /** The column of a key of the record being read, noted so that a failed record can be undone. */
    private JsonColumn touch(String name) {
        JsonColumn c = column(name);
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = c;
        return c;
    }

    private JsonColumn column(String name) {
        JsonColumn c = byName.get(name);
        if (c == null) {
            c = spareColumns.isEmpty() ? new JsonColumn() : spareColumns.remove(spareColumns.size() - 1);
            c.reset(name, maxRows);
            byName.put(name, c);
            columns.add(c);
        }
        return c;
    }

    /** Column storage kept between batches so the arrays and text buffers are not re-grown every poll. */
    private final ArrayList<JsonColumn> spareColumns = new ArrayList<>();
    private static final int MAX_SPARE_COLUMNS = 512;

    private void recycle(JsonColumn c) {
        if (spareColumns.size() < MAX_SPARE_COLUMNS && c.release()) {
            spareColumns.add(c);
        }
    }

    /** Undoes a failed record: its cells become null again and the columns it introduced disappear. */
    private void rollback(int row, int columnsBefore) {
        for (int i = 0; i < touchedCount; i++) {
            touched[i].set(row, JsonColumn.K_NULL, 0);
        }
        touchedCount = 0;
        for (int i = columns.size() - 1; i >= columnsBefore; i--) {
            JsonColumn c = columns.remove(i);
            byName.remove(c.name);
            recycle(c);
        }
    }

    // ------------------------------------------------------------------------------------------- building

    private VectorSchemaRoot build(int rows) {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (JsonColumn c : columns) {
                vectors.add(c.build(allocator, rows));
            }
            return new VectorSchemaRoot(vectors);
        } catch (RuntimeException | Error e) {
            try {
                AutoCloseables.close(vectors);
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
