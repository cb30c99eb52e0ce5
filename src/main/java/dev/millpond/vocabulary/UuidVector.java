package dev.millpond.vocabulary;


import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.hash.ArrowBufHasher;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.types.pojo.Field;

/** A {@link UuidType} column: its values live in a {@code FixedSizeBinaryVector(16)}, big-endian. */
public final class UuidVector extends ExtensionTypeVector<FixedSizeBinaryVector> {

    private final Field field;

    public UuidVector(Field field, BufferAllocator allocator) {
        super(field, allocator, new FixedSizeBinaryVector(field.getName(), allocator, UuidType.BYTE_WIDTH));
        this.field = field;
    }

    /** The extension field; the base class would report the storage field and lose the type on export. */
    @Override
    public Field getField() {
        return field;
    }

    public UuidVector(String name, BufferAllocator allocator) {
        this(UuidType.field(name), allocator);
    }

    /** Store the two halves at {@code index}, growing the vector if needed. */
    public void setSafe(int index, long high, long low) {
        FixedSizeBinaryVector storage = getUnderlyingVector();
        while (index >= storage.getValueCapacity()) {
            storage.reAlloc();
        }
        org.apache.arrow.vector.BitVectorHelper.setBit(storage.getValidityBuffer(), index);
        long at = (long) index * UuidType.BYTE_WIDTH;
        // ArrowBuf writes are little-endian; the wire form is big-endian.
        storage.getDataBuffer().setLong(at, Long.reverseBytes(high));
        storage.getDataBuffer().setLong(at + 8, Long.reverseBytes(low));
    }

    public long high(int index) {
        return Long.reverseBytes(getUnderlyingVector().getDataBuffer().getLong((long) index * UuidType.BYTE_WIDTH));
    }

    public long low(int index) {
        return Long.reverseBytes(getUnderlyingVector().getDataBuffer().getLong((long) index * UuidType.BYTE_WIDTH + 8));
    }

    /** Canonical lower-case text, or null. */
    @Override
    public Object getObject(int index) {
        return isNull(index) ? null : UuidText.canonical(high(index), low(index));
    }

    @Override
    public int hashCode(int index) {
        return getUnderlyingVector().hashCode(index);
    }

    @Override
    public int hashCode(int index, ArrowBufHasher hasher) {
        return getUnderlyingVector().hashCode(index, hasher);
    }
}
