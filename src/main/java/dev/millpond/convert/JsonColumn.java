package dev.millpond.convert;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;

/**
 * One column's values for the poll batch being converted: a kind tag and a {@code long} per row (the int, the double's
 * bits, the bool, or a slice of the column's UTF-8 text buffer). Its Arrow type is decided once, at {@link #build},
 * from the kinds it saw (int + float → DOUBLE; any other mix → VARCHAR of each value's JSON text). Kept between
 * batches so the arrays and text buffers are not re-grown every poll.
 */
final class JsonColumn {
    // Per-row kind tags.
    static final byte K_NULL = 0;
    static final byte K_LONG = 1;
    static final byte K_DOUBLE = 2;
    static final byte K_BOOL = 3;
    static final byte K_TEXT = 4;

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

    /** VARCHAR: text kept as is, every other value rendered as its JSON text. */
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
                    case K_DOUBLE -> text.putDouble(Double.longBitsToDouble(vals[i]));
                    case K_BOOL -> text.put(vals[i] != 0 ? JsonText.TRUE : JsonText.FALSE);
                    default -> throw new IllegalStateException("kind " + k);
                }
                spans[i] = Vectors.span(start, text.length - start);
            }
        }
        return Vectors.varChar(Vectors.nullableField(name, Vectors.VARCHAR), allocator, rows, text, spans);
    }
}
