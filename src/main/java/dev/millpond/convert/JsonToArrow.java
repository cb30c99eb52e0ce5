package dev.millpond.convert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.jboss.logging.Logger;

/**
 * Converts one poll batch of Kafka values (JSON objects as UTF-8 bytes) into an Arrow batch (COMPAT §4 with
 * decision D2).
 *
 * <ul>
 *   <li>Skipped (counted in {@link ConvertedBatch#failed()}, first 200 bytes logged at WARN, at most one line
 *       per second): malformed JSON, invalid UTF-8, a byte-order mark, NaN/Infinity, an empty payload, any
 *       top-level value that is not an object, trailing data after the object, and strings holding a lone
 *       surrogate escape (not representable as UTF-8).</li>
 *   <li>Duplicate keys: the last one wins. Columns: union of keys in first-appearance order.</li>
 *   <li>int → BIGINT, float → DOUBLE, bool → BOOLEAN, string → VARCHAR, object/array → VARCHAR holding compact
 *       JSON (no spaces, key order kept, raw UTF-8, floats in {@link JsonText orjson's format}; integers
 *       inside nested values keep their exact source text).</li>
 *   <li>Per column (D2): int + float → DOUBLE; null-only + T → T; all null → VARCHAR of nulls; any other mix →
 *       VARCHAR holding each value's JSON text ({@code true}, {@code 1}, {@code 2.5}, strings unquoted, nested
 *       as compact JSON). An integer outside int64 keeps its exact decimal text, which makes the column
 *       VARCHAR; so does a float literal that overflows a double (e.g. {@code 1e400}), kept as its source
 *       text rather than becoming Infinity.</li>
 *   <li>A batch in which no record has any key (only {@code {}} and failures) yields no root: 0 rows, all
 *       values failed.</li>
 * </ul>
 *
 * <p>Values are streamed through a Jackson {@link JsonParser} into per-column typed storage (kind tag per
 * row, a {@code long} per row holding the int, the double bits, the bool or a slice of the column's UTF-8
 * text buffer); each column's type is decided once at the end of the batch and the Arrow buffers are written
 * directly. An instance is not thread-safe; use one per consuming thread.
 */
public final class JsonToArrow {
    private static final Logger LOG = Logger.getLogger(JsonToArrow.class);
    private static final int PREVIEW_BYTES = 200;
    private static final long WARN_INTERVAL_NANOS = 1_000_000_000L;

    /**
     * Strict RFC 8259 parsing (no NaN/Infinity, comments, single quotes, leading zeros...). Field names are
     * canonicalized by the factory's symbol table, so repeated keys are the same String instance.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            .build();

    // Per-row kind tags.
    static final byte K_NULL = 0;
    static final byte K_LONG = 1;
    static final byte K_DOUBLE = 2;
    static final byte K_BOOL = 3;
    static final byte K_TEXT = 4;

    private final BufferAllocator allocator;
    private long lastWarnNanos = System.nanoTime() - 2 * WARN_INTERVAL_NANOS;
    private long suppressedWarnings;

    // Per-batch state.
    private final HashMap<String, Column> byName = new HashMap<>();
    private final ArrayList<Column> columns = new ArrayList<>();
    private Column[] touched = new Column[64];
    private int touchedCount;
    private int maxRows;

    /** @param allocator every Arrow buffer of the produced batches is allocated from it */
    public JsonToArrow(BufferAllocator allocator) {
        this.allocator = allocator;
    }

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
                warnUnparseable(value, reason);
            }
        }
        try {
            if (columns.isEmpty() || rows == 0) {
                return new ConvertedBatch(null, 0, values.size(), 0, failures);
            }
            VectorSchemaRoot root = build(rows);
            return new ConvertedBatch(root, rows, values.size() - rows, ArrowSizes.nbytes(root), failures);
        } finally {
            for (Column c : columns) {
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
        if (!JsonText.isStrictUtf8WithoutNul(value)) {
            return "not valid UTF-8";
        }
        int columnsBefore = columns.size();
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
        } catch (DuplicateNestedKey e) {
            reason = NESTED_DUPLICATE;
        } catch (IOException | RuntimeException e) {
            reason = e.getClass().getSimpleName() + ": " + firstLine(e.getMessage());
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
            Column c = column(p.currentName());
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = c;
            t = p.nextToken();
            switch (t) {
                case VALUE_NULL -> c.set(row, K_NULL, 0);
                case VALUE_TRUE -> c.set(row, K_BOOL, 1);
                case VALUE_FALSE -> c.set(row, K_BOOL, 0);
                case VALUE_NUMBER_INT -> {
                    JsonParser.NumberType nt = p.getNumberType();
                    if (nt == JsonParser.NumberType.INT || nt == JsonParser.NumberType.LONG) {
                        c.set(row, K_LONG, p.getLongValue());
                    } else {
                        // Beyond int64: keep the exact decimal text (D2).
                        c.setText(row, p);
                    }
                }
                case VALUE_NUMBER_FLOAT -> {
                    double d = p.getDoubleValue();
                    if (Double.isInfinite(d)) {
                        c.setText(row, p); // overflowing literal: keep the source text, never Infinity
                    } else {
                        c.set(row, K_DOUBLE, Double.doubleToRawLongBits(d));
                    }
                }
                case VALUE_STRING -> c.setText(row, p);
                case START_OBJECT, START_ARRAY -> {
                    ByteBuf text = c.text;
                    int start = text.length;
                    if (nestedSlowPath) {
                        writeTree(readTree(p), text);
                    } else {
                        writeCompact(p, text);
                    }
                    c.set(row, K_TEXT, Vectors.span(start, text.length - start));
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

    /**
     * Writes the object or array at the parser's current token as compact JSON, the way orjson.dumps writes
     * it, leaving the parser on its closing token. Throws {@link DuplicateNestedKey} when an object repeats a
     * key (orjson keeps the last value at the first key's position, which needs {@link #readTree}).
     */
    private void writeCompact(JsonParser p, ByteBuf out) throws IOException {
        int depth = 0;
        boolean comma = false;
        JsonToken t = p.currentToken();
        while (true) {
            switch (t) {
                case START_OBJECT -> {
                    if (comma) out.put((byte) ',');
                    out.put((byte) '{');
                    openScope(depth++);
                    comma = false;
                }
                case START_ARRAY -> {
                    if (comma) out.put((byte) ',');
                    out.put((byte) '[');
                    openScope(depth++);
                    comma = false;
                }
                case END_OBJECT -> {
                    out.put((byte) '}');
                    closeScope(--depth);
                    comma = true;
                }
                case END_ARRAY -> {
                    out.put((byte) ']');
                    closeScope(--depth);
                    comma = true;
                }
                case FIELD_NAME -> {
                    if (comma) out.put((byte) ',');
                    String name = p.currentName();
                    addKey(depth - 1, name);
                    out.put(quotedName(name));
                    comma = false;
                }
                default -> {
                    if (comma) out.put((byte) ',');
                    writeScalar(p, t, out);
                    comma = true;
                }
            }
            if (depth == 0) {
                return;
            }
            t = p.nextToken();
            if (t == null) {
                throw new IOException("unexpected end of input");
            }
        }
    }

    private static void writeScalar(JsonParser p, JsonToken t, ByteBuf out) throws IOException {
        switch (t) {
            case VALUE_STRING -> JsonText.appendQuoted(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
            // Exact source text: JSON integer syntax is canonical already, and big values are never rounded.
            case VALUE_NUMBER_INT -> JsonText.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
            case VALUE_NUMBER_FLOAT -> {
                double d = p.getDoubleValue();
                if (Double.isInfinite(d)) {
                    JsonText.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
                } else {
                    JsonText.appendDouble(d, out);
                }
            }
            case VALUE_TRUE -> out.put(JsonText.TRUE);
            case VALUE_FALSE -> out.put(JsonText.FALSE);
            case VALUE_NULL -> out.put(JsonText.NULL);
            default -> throw new IOException("unexpected token " + t);
        }
    }

    /** {@code "name":} as compact JSON bytes, cached per key (keys repeat from record to record). */
    private final HashMap<String, byte[]> quotedNames = new HashMap<>();
    private static final int QUOTED_NAME_CACHE_LIMIT = 50_000;

    private byte[] quotedName(String name) {
        byte[] q = quotedNames.get(name);
        if (q == null) {
            ByteBuf b = new ByteBuf(name.length() + 8);
            JsonText.appendQuoted(name, b);
            b.put((byte) ':');
            q = Arrays.copyOf(b.data, b.length);
            if (quotedNames.size() >= QUOTED_NAME_CACHE_LIMIT) {
                quotedNames.clear(); // high-cardinality keys: keep the cache bounded
            }
            quotedNames.put(name, q);
        }
        return q;
    }

    // Keys of the nested objects currently open, to spot duplicates: scopeStart[d] indexes keyStack.
    private String[] keyStack = new String[64];
    private int keyTop;
    private int[] scopeStart = new int[16];
    private long[] scopeMask = new long[16];
    private java.util.HashSet<String>[] scopeSets = newSetArray(16);
    private static final int LINEAR_SCAN_LIMIT = 64;

    @SuppressWarnings("unchecked")
    private static java.util.HashSet<String>[] newSetArray(int n) {
        return (java.util.HashSet<String>[]) new java.util.HashSet<?>[n];
    }

    private void openScope(int depth) {
        if (depth == scopeStart.length) {
            scopeStart = Arrays.copyOf(scopeStart, depth * 2);
            scopeMask = Arrays.copyOf(scopeMask, depth * 2);
            scopeSets = Arrays.copyOf(scopeSets, depth * 2);
        }
        if (depth == 0) {
            keyTop = 0;
        }
        scopeStart[depth] = keyTop;
        scopeMask[depth] = 0;
        java.util.HashSet<String> set = scopeSets[depth];
        if (set != null && !set.isEmpty()) {
            set.clear(); // left over from a larger object (or an aborted record) at this depth
        }
    }

    private void closeScope(int depth) {
        keyTop = scopeStart[depth];
    }

    private void addKey(int depth, String name) {
        int start = scopeStart[depth];
        int count = keyTop - start;
        if (count < LINEAR_SCAN_LIMIT) {
            // A 64-bit filter of the scope's key hashes: only a hit needs the scan.
            int h = name.hashCode();
            long bit = 1L << ((h ^ (h >>> 6) ^ (h >>> 12) ^ (h >>> 18)) & 63);
            if ((scopeMask[depth] & bit) != 0) {
                for (int i = start; i < keyTop; i++) {
                    String k = keyStack[i];
                    if (k == name || (k.hashCode() == h && k.equals(name))) {
                        throw DuplicateNestedKey.INSTANCE;
                    }
                }
            }
            scopeMask[depth] |= bit;
        } else {
            java.util.HashSet<String> set = scopeSets[depth];
            if (set == null) {
                set = scopeSets[depth] = new java.util.HashSet<>();
            }
            if (set.isEmpty()) {
                for (int i = start; i < keyTop; i++) {
                    set.add(keyStack[i]);
                }
            }
            if (!set.add(name)) {
                throw DuplicateNestedKey.INSTANCE;
            }
        }
        if (keyTop == keyStack.length) {
            keyStack = Arrays.copyOf(keyStack, keyTop * 2);
        }
        keyStack[keyTop++] = name;
    }

    /** Signals a repeated key inside a nested object; the record is then parsed again on the slow path. */
    private static final class DuplicateNestedKey extends RuntimeException {
        static final DuplicateNestedKey INSTANCE = new DuplicateNestedKey();

        private DuplicateNestedKey() {
            super("duplicate key in nested object", null, false, false);
        }
    }

    private static final String NESTED_DUPLICATE = "nested duplicate key";
    private boolean nestedSlowPath;

    /**
     * Slow path: reads the value at the current token into a tree (LinkedHashMap for objects, so a repeated
     * key keeps its first position and takes the last value, like a Python dict; ArrayList for arrays; the
     * rendered bytes for scalars).
     */
    private static Object readTree(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            java.util.LinkedHashMap<String, Object> map = new java.util.LinkedHashMap<>();
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                map.put(name, readTree(p));
            }
            if (t != JsonToken.END_OBJECT) {
                throw new IOException("unexpected token " + t);
            }
            return map;
        }
        if (t == JsonToken.START_ARRAY) {
            ArrayList<Object> list = new ArrayList<>();
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) {
                    throw new IOException("unexpected end of input");
                }
                list.add(readTree(p));
            }
            return list;
        }
        ByteBuf scalar = new ByteBuf(16);
        writeScalar(p, t, scalar);
        return Arrays.copyOf(scalar.data, scalar.length);
    }

    private static void writeTree(Object node, ByteBuf out) {
        if (node instanceof java.util.Map<?, ?> map) {
            out.put((byte) '{');
            boolean comma = false;
            for (java.util.Map.Entry<?, ?> e : map.entrySet()) {
                if (comma) out.put((byte) ',');
                JsonText.appendQuoted((String) e.getKey(), out);
                out.put((byte) ':');
                writeTree(e.getValue(), out);
                comma = true;
            }
            out.put((byte) '}');
        } else if (node instanceof List<?> list) {
            out.put((byte) '[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.put((byte) ',');
                writeTree(list.get(i), out);
            }
            out.put((byte) ']');
        } else {
            out.put((byte[]) node);
        }
    }

    private Column column(String name) {
        Column c = byName.get(name);
        if (c == null) {
            c = spareColumns.isEmpty() ? new Column() : spareColumns.remove(spareColumns.size() - 1);
            c.reset(name, maxRows);
            byName.put(name, c);
            columns.add(c);
        }
        return c;
    }

    /** Column storage kept between batches so the arrays and text buffers are not re-grown every poll. */
    private final ArrayList<Column> spareColumns = new ArrayList<>();
    private static final int MAX_SPARE_COLUMNS = 512;

    private void recycle(Column c) {
        if (spareColumns.size() < MAX_SPARE_COLUMNS && c.release()) {
            spareColumns.add(c);
        }
    }

    /** Undoes a failed record: its cells become null again and the columns it introduced disappear. */
    private void rollback(int row, int columnsBefore) {
        for (int i = 0; i < touchedCount; i++) {
            touched[i].set(row, K_NULL, 0);
        }
        touchedCount = 0;
        for (int i = columns.size() - 1; i >= columnsBefore; i--) {
            Column c = columns.remove(i);
            byName.remove(c.name);
            recycle(c);
        }
    }

    // ------------------------------------------------------------------------------------------- building

    private VectorSchemaRoot build(int rows) {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (Column c : columns) {
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

    /** One column's values for the batch being converted. */
    static final class Column {
        private static final int MAX_KEPT_TEXT = 16 << 20;
        private static final int MAX_KEPT_ROWS = 1 << 20;
        String name;
        int maxRows;
        byte[] kinds = new byte[0];
        long[] vals = new long[0];
        final ByteBuf text = new ByteBuf(64);

        void reset(String name, int maxRows) {
            this.name = name;
            this.maxRows = maxRows;
            if (kinds.length == 0) {
                int cap = Math.min(maxRows, 256);
                kinds = new byte[cap];
                vals = new long[cap];
            }
            text.clear();
        }

        /** Clears the column for reuse; false when its buffers are too large to keep around. */
        boolean release() {
            name = null;
            Arrays.fill(kinds, K_NULL);
            text.clear();
            return text.data.length <= MAX_KEPT_TEXT && kinds.length <= MAX_KEPT_ROWS;
        }

        void set(int row, byte kind, long value) {
            if (row >= kinds.length) {
                if (kind == K_NULL) {
                    return; // rows beyond the arrays are null already
                }
                int cap = (int) Math.max(row + 1L, Math.min(kinds.length * 2L, maxRows));
                kinds = Arrays.copyOf(kinds, cap);
                vals = Arrays.copyOf(vals, cap);
            }
            kinds[row] = kind;
            vals[row] = value;
        }

        /** Stores the current token's text as UTF-8. */
        void setText(int row, JsonParser p) throws IOException {
            int start = text.length;
            JsonText.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), text);
            set(row, K_TEXT, Vectors.span(start, text.length - start));
        }

        FieldVector build(BufferAllocator allocator, int rows) {
            int n = Math.min(rows, kinds.length);
            int mask = 0;
            for (int i = 0; i < n; i++) {
                mask |= 1 << kinds[i];
            }
            mask &= ~(1 << K_NULL);
            if (mask == 1 << K_LONG) {
                return buildBigInt(allocator, rows, n);
            }
            if (mask == (1 << K_DOUBLE) || mask == ((1 << K_DOUBLE) | (1 << K_LONG))) {
                return buildFloat8(allocator, rows, n);
            }
            if (mask == 1 << K_BOOL) {
                return buildBit(allocator, rows, n);
            }
            return buildVarChar(allocator, rows, n);
        }

        private FieldVector buildBigInt(BufferAllocator allocator, int rows, int n) {
            BigIntVector v = new BigIntVector(Vectors.nullableField(name, Vectors.BIGINT), allocator);
            try {
                v.allocateNew(rows);
                ArrowBuf data = v.getDataBuffer();
                ArrowBuf validity = v.getValidityBuffer();
                validity.setZero(0, validity.capacity());
                for (int i = 0; i < n; i++) {
                    if (kinds[i] == K_LONG) {
                        data.setLong((long) i * 8, vals[i]);
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

        private FieldVector buildFloat8(BufferAllocator allocator, int rows, int n) {
            Float8Vector v = new Float8Vector(Vectors.nullableField(name, Vectors.DOUBLE), allocator);
            try {
                v.allocateNew(rows);
                ArrowBuf data = v.getDataBuffer();
                ArrowBuf validity = v.getValidityBuffer();
                validity.setZero(0, validity.capacity());
                for (int i = 0; i < n; i++) {
                    byte k = kinds[i];
                    if (k == K_DOUBLE) {
                        data.setLong((long) i * 8, vals[i]);
                        BitVectorHelper.setBit(validity, i);
                    } else if (k == K_LONG) {
                        data.setDouble((long) i * 8, (double) vals[i]);
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

        private FieldVector buildBit(BufferAllocator allocator, int rows, int n) {
            BitVector v = new BitVector(Vectors.nullableField(name, Vectors.BOOL), allocator);
            try {
                v.allocateNew(rows);
                ArrowBuf data = v.getDataBuffer();
                ArrowBuf validity = v.getValidityBuffer();
                validity.setZero(0, validity.capacity());
                data.setZero(0, data.capacity());
                for (int i = 0; i < n; i++) {
                    if (kinds[i] == K_BOOL) {
                        if (vals[i] != 0) {
                            BitVectorHelper.setBit(data, i);
                        }
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

        /** VARCHAR: text kept as is, every other value rendered as its JSON text (D2). */
        private FieldVector buildVarChar(BufferAllocator allocator, int rows, int n) {
            long[] spans = new long[rows];
            Arrays.fill(spans, Vectors.NULL_SPAN);
            for (int i = 0; i < n; i++) {
                byte k = kinds[i];
                if (k == K_TEXT) {
                    spans[i] = vals[i];
                } else if (k != K_NULL) {
                    int start = text.length;
                    switch (k) {
                        case K_LONG -> text.putLong(vals[i]);
                        case K_DOUBLE -> JsonText.appendDouble(Double.longBitsToDouble(vals[i]), text);
                        case K_BOOL -> text.put(vals[i] != 0 ? JsonText.TRUE : JsonText.FALSE);
                        default -> throw new IllegalStateException("kind " + k);
                    }
                    spans[i] = Vectors.span(start, text.length - start);
                }
            }
            return Vectors.varChar(Vectors.nullableField(name, Vectors.VARCHAR), allocator, rows, text, spans);
        }
    }

    // ------------------------------------------------------------------------------------------- logging

    private void warnUnparseable(byte[] value, String reason) {
        long now = System.nanoTime();
        if (now - lastWarnNanos < WARN_INTERVAL_NANOS) {
            suppressedWarnings++;
            return;
        }
        lastWarnNanos = now;
        long suppressed = suppressedWarnings;
        suppressedWarnings = 0;
        if (suppressed == 0) {
            LOG.warnf("Skipping unparseable JSON value (%s): %s", reason, preview(value));
        } else {
            LOG.warnf("Skipping unparseable JSON value (%s; %d more since the last warning): %s",
                    reason, suppressed, preview(value));
        }
    }

    /** The first 200 bytes, decoded leniently, with control characters escaped so a log line stays one line. */
    static String preview(byte[] value) {
        if (value == null) {
            return "null";
        }
        int n = Math.min(value.length, PREVIEW_BYTES);
        String s = new String(value, 0, n, java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (value.length > n) {
            sb.append("... (").append(value.length).append(" bytes)");
        }
        return sb.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
