package dev.millpond.vocabulary;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Arrow's canonical UUID extension type ({@code arrow.uuid} over {@code fixed_size_binary(16)}, 16 big-endian bytes),
 * which pyarrow calls {@code pa.uuid()}. Arrow Java 18.3 does not ship it, so it is defined here. DuckDB maps it to a
 * native UUID column; the bare storage type would land as a BLOB.
 */
public final class UuidType extends ArrowType.ExtensionType {
    public static final String EXTENSION_NAME = "arrow.uuid";
    public static final int BYTE_WIDTH = 16;
    private static final ArrowType.FixedSizeBinary STORAGE = new ArrowType.FixedSizeBinary(BYTE_WIDTH);
    public static final UuidType INSTANCE = new UuidType();

    static {
        // So a stream imported back through the C interface or IPC yields this type, not bare storage.
        if (ExtensionTypeRegistry.lookup(EXTENSION_NAME) == null) {
            ExtensionTypeRegistry.register(INSTANCE);
        }
    }

    private UuidType() {
    }

    /** A nullable field of this type. */
    public static Field field(String name) {
        return new Field(name, FieldType.nullable(INSTANCE), null);
    }

    @Override
    public ArrowType storageType() {
        return STORAGE;
    }

    @Override
    public String extensionName() {
        return EXTENSION_NAME;
    }

    @Override
    public boolean extensionEquals(ExtensionType other) {
        return other instanceof UuidType;
    }

    @Override
    public String serialize() {
        return "";
    }

    @Override
    public ArrowType deserialize(ArrowType storageType, String serializedData) {
        if (!STORAGE.equals(storageType)) {
            throw new UnsupportedOperationException("arrow.uuid needs fixed_size_binary(16) storage, got " + storageType);
        }
        return INSTANCE;
    }

    @Override
    public FieldVector getNewVector(String name, FieldType fieldType, BufferAllocator allocator) {
        return new UuidVector(new Field(name, fieldType, null), allocator);
    }
}
