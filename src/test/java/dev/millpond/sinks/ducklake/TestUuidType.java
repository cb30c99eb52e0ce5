package dev.millpond.sinks.ducklake;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.hash.ArrowBufHasher;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The canonical {@code arrow.uuid} extension type over {@code fixed_size_binary(16)}, as the uuid pin produces it.
 * Arrow Java 18 has none of its own; this test copy carries only what a sink test needs.
 */
final class TestUuidType extends ArrowType.ExtensionType {

    @Override
    public ArrowType storageType() {
        return new ArrowType.FixedSizeBinary(16);
    }

    @Override
    public String extensionName() {
        return "arrow.uuid";
    }

    @Override
    public boolean extensionEquals(ExtensionType other) {
        return other instanceof TestUuidType;
    }

    @Override
    public ArrowType deserialize(ArrowType storageType, String serializedData) {
        return new TestUuidType();
    }

    @Override
    public String serialize() {
        return "";
    }

    @Override
    public FieldVector getNewVector(String name, FieldType fieldType, BufferAllocator allocator) {
        return new Vector(name, allocator, new FixedSizeBinaryVector(name, allocator, 16));
    }

    static final class Vector extends ExtensionTypeVector<FixedSizeBinaryVector> {
        Vector(String name, BufferAllocator allocator, FixedSizeBinaryVector storage) {
            super(name, allocator, storage);
        }

        @Override
        public Object getObject(int index) {
            byte[] b = getUnderlyingVector().getObject(index);
            if (b == null) {
                return null;
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            return new UUID(buf.getLong(), buf.getLong());
        }

        @Override
        public int hashCode(int index) {
            return getUnderlyingVector().hashCode(index);
        }

        @Override
        public int hashCode(int index, ArrowBufHasher hasher) {
            return getUnderlyingVector().hashCode(index, hasher);
        }

        @Override
        public Field getField() {
            return new Field(getName(), FieldType.nullable(new TestUuidType()), null);
        }
    }

    /** A one-column batch named {@code column} holding {@code values} (null entries become nulls). */
    static VectorSchemaRoot batch(BufferAllocator allocator, String column, java.util.List<UUID> values) {
        Vector v = (Vector) new TestUuidType().getNewVector(column, FieldType.nullable(new TestUuidType()), allocator);
        v.getUnderlyingVector().allocateNew(values.size());
        for (int i = 0; i < values.size(); i++) {
            UUID u = values.get(i);
            if (u == null) {
                v.getUnderlyingVector().setNull(i);
            } else {
                v.getUnderlyingVector().setSafe(i, ByteBuffer.allocate(16)
                        .putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array());
            }
        }
        v.setValueCount(values.size());
        VectorSchemaRoot root = new VectorSchemaRoot(java.util.List.of(v.getField()), java.util.List.<FieldVector>of(v), values.size());
        return root;
    }
}
