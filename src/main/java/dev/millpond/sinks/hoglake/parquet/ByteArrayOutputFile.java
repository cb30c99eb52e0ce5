package dev.millpond.sinks.hoglake.parquet;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.ByteArrayOutputStream;

/** A parquet {@link OutputFile} in memory: the encoded file is uploaded as one object, no filesystem in between. */
final class ByteArrayOutputFile implements OutputFile {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return createOrOverwrite(blockSizeHint);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        bytes.reset();
        return new PositionOutputStream() {
            @Override
            public long getPos() {
                return bytes.size();
            }

            @Override
            public void write(int b) {
                bytes.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                bytes.write(b, off, len);
            }
        };
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return "memory";
    }

    byte[] toByteArray() {
        return bytes.toByteArray();
    }
}
