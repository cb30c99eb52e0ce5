package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array. Not thread-safe; package-private building block of the converter. */
final class ByteBuf {
    byte[] data;
    int length;

    ByteBuf(int initialCapacity) {
        data = new byte[Math.max(16, initialCapacity)];
    }

    void clear() {
        length = 0;
    }

    /** Makes room for {@code extra} more bytes. */
    void ensure(int extra) {
        int needed = length + extra;
        if (needed > data.length) {
            grow(needed);
        }
    }

    private void grow(int needed) {
        if (needed < 0) {
            throw new IllegalStateException("text buffer exceeds 2 GiB");
        }
        long newCap = Math.max((long) data.length * 2, needed);
        data = Arrays.copyOf(data, (int) Math.min(newCap, Integer.MAX_VALUE - 16));
    }

    void put(byte b) {
        if (length == data.length) {
            grow(length + 1);
        }
        data[length++] = b;
    }

    void put(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, data, length, len);
        length += len;
    }

    void put(byte[] src) {
        put(src, 0, src.length);
    }

    /** Appends the shortest text of {@code v} ({@link DoubleText}); {@code null} for a non-finite value. */
    void putDouble(double v) {
        ensure(DoubleText.MAX_LENGTH);
        length = DoubleText.write(v, data, length);
    }

    /** Appends the decimal text of {@code v}. */
    void putLong(long v) {
        if (v >= 0 && v < 10) {
            put((byte) ('0' + v));
            return;
        }
        ensure(20);
        if (v == Long.MIN_VALUE) {
            put(LONG_MIN);
            return;
        }
        if (v < 0) {
            data[length++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            data[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        length = end;
    }

    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
}
