package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a nested object or array as compact JSON the way orjson.dumps writes it: no spaces, key order kept, raw
 * UTF-8, floats in {@link DoubleText orjson's format}, integers as their exact source text.
 *
 * <p>The fast path ({@link #writeCompact}) streams tokens straight into the output and throws
 * {@link NestedKeyScopes.DuplicateNestedKey} when an object repeats a key; the slow path ({@link #writeTree}) reads
 * the value into a tree first, so a repeated key keeps its first position and takes the last value, like a Python
 * dict. Reused across records; not thread-safe.
 */
final class NestedJsonWriter {
    private static final int QUOTED_NAME_CACHE_LIMIT = 50_000;

    /** {@code "name":} as compact JSON bytes, cached per key (keys repeat from record to record). */
    private final HashMap<String, byte[]> quotedNames = new HashMap<>();
    private final NestedKeyScopes scopes = new NestedKeyScopes();

    /**
     * Writes the object or array at the parser's current token, leaving the parser on its closing token.
     *
     * @throws NestedKeyScopes.DuplicateNestedKey when an object repeats a key
     */
    void writeCompact(JsonParser p, ByteBuf out) throws IOException {
        int depth = 0;
        boolean comma = false;
        JsonToken t = p.currentToken();
        while (true) {
            switch (t) {
                case START_OBJECT -> {
                    if (comma) out.put((byte) ',');
                    out.put((byte) '{');
                    scopes.open(depth++);
                    comma = false;
                }
                case START_ARRAY -> {
                    if (comma) out.put((byte) ',');
                    out.put((byte) '[');
                    scopes.open(depth++);
                    comma = false;
                }
                case END_OBJECT -> {
                    out.put((byte) '}');
                    scopes.close(--depth);
                    comma = true;
                }
                case END_ARRAY -> {
                    out.put((byte) ']');
                    scopes.close(--depth);
                    comma = true;
                }
                case FIELD_NAME -> {
                    if (comma) out.put((byte) ',');
                    String name = p.currentName();
                    scopes.add(depth - 1, name);
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

    /** Slow path: the value at the current token, read into a tree and written with repeated keys merged. */
    void writeTree(JsonParser p, ByteBuf out) throws IOException {
        writeTree(readTree(p), out);
    }

    static void writeScalar(JsonParser p, JsonToken t, ByteBuf out) throws IOException {
        switch (t) {
            case VALUE_STRING -> JsonText.appendQuoted(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
            // Exact source text: JSON integer syntax is canonical already, and big values are never rounded.
            case VALUE_NUMBER_INT -> JsonText.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
            case VALUE_NUMBER_FLOAT -> {
                char[] text = p.getTextCharacters();
                if (DoubleText.isShortestDecimal(text, p.getTextOffset(), p.getTextLength())) {
                    // Already the text appendDouble would write: copy it rather than parse and re-render.
                    JsonText.appendUtf8(text, p.getTextOffset(), p.getTextLength(), out);
                    return;
                }
                double d = p.getDoubleValue();
                if (Double.isInfinite(d)) {
                    JsonText.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), out);
                } else {
                    out.putDouble(d);
                }
            }
            case VALUE_TRUE -> out.put(JsonText.TRUE);
            case VALUE_FALSE -> out.put(JsonText.FALSE);
            case VALUE_NULL -> out.put(JsonText.NULL);
            default -> throw new IOException("unexpected token " + t);
        }
    }

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

    /**
     * Reads the value at the current token into a tree (LinkedHashMap for objects, so a repeated key keeps its first
     * position and takes the last value; ArrayList for arrays; the rendered bytes for scalars).
     */
    private static Object readTree(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            LinkedHashMap<String, Object> map = new LinkedHashMap<>();
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
        if (node instanceof Map<?, ?> map) {
            out.put((byte) '{');
            boolean comma = false;
            for (Map.Entry<?, ?> e : map.entrySet()) {
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
}
