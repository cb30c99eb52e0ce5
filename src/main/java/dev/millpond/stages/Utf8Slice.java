package dev.millpond.stages;

import org.apache.arrow.vector.VarCharVector;

/**
 * One VARCHAR value viewed as a {@link CharSequence} of its bytes, reused across rows so the parsers allocate
 * nothing per value. A byte ≥ 0x80 reads as a char ≥ 128, which none of the accepted wire forms contain, so
 * every parser refuses non-ASCII text without decoding it.
 */
final class Utf8Slice implements CharSequence {
    private byte[] bytes = new byte[64];
    private int length;

    /** Point at row {@code index} of {@code vector} (which must be non-null there). */
    Utf8Slice load(VarCharVector vector, int index) {
        long start = vector.getStartOffset(index);
        int len = (int) (vector.getEndOffset(index) - start);
        if (len > bytes.length) {
            bytes = new byte[Math.max(len, bytes.length * 2)];
        }
        vector.getDataBuffer().getBytes(start, bytes, 0, len);
        length = len;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return (char) (bytes[index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(bytes, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    }
}
