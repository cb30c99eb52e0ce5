package dev.millpond.convert;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.Text;

/** Small helpers to feed JSON text in and read Arrow values back as plain Java objects. */
final class ArrowTestSupport {
    private ArrowTestSupport() {}

    static final ArrowType BIGINT = new ArrowType.Int(64, true);
    static final ArrowType DOUBLE = new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE);
    static final ArrowType BOOL = ArrowType.Bool.INSTANCE;
    static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;

    static List<byte[]> utf8(String... json) {
        List<byte[]> out = new ArrayList<>();
        for (String s : json) {
            out.add(s.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Column values as Long / Double / Boolean / String / null. */
    static List<Object> values(VectorSchemaRoot root, String column) {
        FieldVector v = root.getVector(column);
        if (v == null) {
            throw new AssertionError("no column " + column + " in " + root.getSchema());
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < root.getRowCount(); i++) {
            Object o = v.getObject(i);
            out.add(o instanceof Text t ? t.toString() : o);
        }
        return out;
    }

    static Map<String, ArrowType> types(VectorSchemaRoot root) {
        Map<String, ArrowType> out = new LinkedHashMap<>();
        root.getSchema().getFields().forEach(f -> out.put(f.getName(), f.getType()));
        return out;
    }

    static List<String> names(VectorSchemaRoot root) {
        return new ArrayList<>(types(root).keySet());
    }
}
