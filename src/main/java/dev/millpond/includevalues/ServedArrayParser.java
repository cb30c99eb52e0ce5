package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads a poll's body as it arrives: a JSON array whose elements are all 64-bit integers or all strings. Anything
 * else — an object, a float, a bool, a null element, nesting, a mix of integers and strings, trailing content — is a
 * failure, never a partial set: an allowlist built from half-understood input is worse than the last good one.
 *
 * <p>The body is fed to Jackson's non-blocking parser chunk by chunk and each element goes straight into a primitive
 * array, so neither the body nor a tree of it is ever held: a 32 MiB list of integers costs its {@code long[]}
 * (about a third of the body), not ten times the body. The set may take at most {@code maxHeapBytes}
 * ({@link FilterValues#heapBytes}, the allowlist's share of the heap); a response holding more distinct values is a
 * failure with a message naming the limit. Not thread-safe: one parser per response.
 */
final class ServedArrayParser {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final int FIRST_CAPACITY = 1024;

    private final long maxHeapBytes;
    private final JsonParser parser;
    private final ByteArrayFeeder feeder;
    private boolean started;
    private boolean ended;
    private FilterValues.Type type;
    private long[] longs;
    private String[] strings;
    private int count;
    /** Heap the values read so far take ({@link FilterValues#heapBytes}), duplicates until the next compaction. */
    private long heapBytes = 16;

    /** @param maxHeapBytes the most heap the set of distinct values may take */
    ServedArrayParser(long maxHeapBytes) {
        this.maxHeapBytes = maxHeapBytes;
        try {
            this.parser = FACTORY.createNonBlockingByteArrayParser();
        } catch (IOException e) {
            throw new IllegalStateException("Jackson's non-blocking parser is part of jackson-core", e);
        }
        this.feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
    }

    /** The whole body at once (tests, and what {@link #feed} amounts to). */
    static ServedValues parse(byte[] body, long maxHeapBytes) throws PollFailure {
        ServedArrayParser p = new ServedArrayParser(maxHeapBytes);
        p.feed(body, 0, body.length);
        return p.finish();
    }

    /** The next bytes of the body; the parser is done with them when this returns. */
    void feed(byte[] bytes, int offset, int length) throws PollFailure {
        try {
            feeder.feedInput(bytes, offset, offset + length);
        } catch (IOException e) {
            throw notJson(e);
        }
        drain();
    }

    /** The body has ended: the values, or why they are not an allowlist. */
    ServedValues finish() throws PollFailure {
        feeder.endOfInput();
        drain();
        if (!started) {
            throw new PollFailure("response is not a JSON array (got nothing)");
        }
        if (!ended) {
            throw new PollFailure("response is not JSON: the array does not end");
        }
        if (count == 0) {
            return ServedValues.empty();
        }
        if (heapBytes > maxHeapBytes) {
            compact();
        }
        FilterValues values = type == FilterValues.Type.INTEGER ? FilterValues.Ints.adopt(longs, count)
                : FilterValues.Strings.adopt(strings, count);
        longs = null;
        strings = null;
        return new ServedValues(Optional.of(type), values);
    }

    private void drain() throws PollFailure {
        try {
            JsonToken t;
            while ((t = parser.nextToken()) != null && t != JsonToken.NOT_AVAILABLE) {
                token(t);
            }
        } catch (JsonProcessingException e) {
            throw notJson(e);
        } catch (IOException e) {
            throw new PollFailure("response could not be read: " + e.getMessage(), e);
        }
    }

    private void token(JsonToken t) throws IOException, PollFailure {
        if (ended) {
            throw new PollFailure("response is not JSON: trailing content after the array (" + t.asString() + ")");
        }
        if (!started) {
            if (t != JsonToken.START_ARRAY) {
                throw new PollFailure("response is not a JSON array (got " + kind(t) + ")");
            }
            started = true;
            return;
        }
        switch (t) {
            case END_ARRAY -> ended = true;
            case VALUE_NUMBER_INT -> {
                if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw new PollFailure("response holds an integer outside the 64-bit range: " + parser.getText());
                }
                add(FilterValues.Type.INTEGER);
                if (count == longs.length) {
                    grow();
                }
                longs[count++] = parser.getLongValue();
                heapBytes += 8;
            }
            case VALUE_STRING -> {
                add(FilterValues.Type.STRING);
                if (count == strings.length) {
                    grow();
                }
                String s = parser.getText();
                strings[count++] = s;
                heapBytes += FilterValues.stringHeapBytes(s.length());
            }
            default -> throw new PollFailure("response holds a " + kind(t) + " element; only integers and strings"
                    + " are allowlist values");
        }
        if (heapBytes > maxHeapBytes + slack()) {
            compact();
        }
    }

    private void add(FilterValues.Type elementType) throws PollFailure {
        if (type == null) {
            type = elementType;
            if (type == FilterValues.Type.INTEGER) {
                longs = new long[FIRST_CAPACITY];
            } else {
                strings = new String[FIRST_CAPACITY];
            }
        } else if (type != elementType) {
            throw new PollFailure("response mixes integers and strings");
        }
    }

    /** Doubles the array, up to what the limit (with its slack) allows: a copy stays within about twice the set. */
    private void grow() throws PollFailure {
        long perValue = type == FilterValues.Type.INTEGER ? 8 : FilterValues.stringHeapBytes(0);
        long bound = Math.min(Integer.MAX_VALUE - 8, (maxHeapBytes + slack()) / perValue + 1);
        if (count >= bound) {
            compact(); // every slot is in use: only duplicates can make room
            if (count < (type == FilterValues.Type.INTEGER ? longs.length : strings.length)) {
                return;
            }
        }
        int capacity = (int) Math.max(count + 1L, Math.min(bound, 2L * count));
        if (type == FilterValues.Type.INTEGER) {
            longs = Arrays.copyOf(longs, capacity);
        } else {
            strings = Arrays.copyOf(strings, capacity);
        }
    }

    /** How far past the limit duplicates may take the values read before they are compacted. */
    private long slack() {
        return maxHeapBytes / 4;
    }

    /**
     * Drops the duplicates read so far, in place; a response holding more distinct values than the limit allows is
     * refused.
     */
    private void compact() throws PollFailure {
        int distinct = 0;
        if (type == FilterValues.Type.INTEGER) {
            Arrays.sort(longs, 0, count);
            for (int i = 0; i < count; i++) {
                if (distinct == 0 || longs[i] != longs[distinct - 1]) {
                    longs[distinct++] = longs[i];
                }
            }
            heapBytes = 16 + 8L * distinct;
        } else {
            Arrays.sort(strings, 0, count);
            heapBytes = 16;
            for (int i = 0; i < count; i++) {
                if (distinct == 0 || !strings[i].equals(strings[distinct - 1])) {
                    strings[distinct++] = strings[i];
                    heapBytes += FilterValues.stringHeapBytes(strings[i].length());
                }
            }
            Arrays.fill(strings, distinct, count, null);
        }
        count = distinct;
        if (heapBytes > maxHeapBytes) {
            throw new PollFailure("response holds more values than the allowlist may take: " + count
                    + " distinct values read so far take more than " + maxHeapBytes / (1024 * 1024) + " MiB, the"
                    + " allowlist's share of the heap (at most " + maxHeapBytes / 8 + " integers, fewer strings)");
        }
    }

    private static PollFailure notJson(IOException e) {
        String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        return new PollFailure("response is not JSON: " + message);
    }

    private static String kind(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "OBJECT";
            case START_ARRAY -> "ARRAY";
            case VALUE_NUMBER_FLOAT -> "NUMBER (not an integer)";
            case VALUE_TRUE, VALUE_FALSE -> "BOOLEAN";
            case VALUE_NULL -> "NULL";
            case VALUE_STRING -> "STRING";
            case VALUE_NUMBER_INT -> "NUMBER";
            default -> String.valueOf(t);
        };
    }
}
