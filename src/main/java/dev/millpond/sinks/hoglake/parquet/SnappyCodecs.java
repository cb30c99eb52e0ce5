package dev.millpond.sinks.hoglake.parquet;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * SNAPPY page compression straight through snappy-java. Hand-written because parquet-java's own codec factory reaches
 * its codecs through Hadoop's compression interfaces, which this writer keeps off the classpath; parquet's SNAPPY is
 * the raw block format, which is what {@link Snappy#compress(byte[])} produces.
 */
final class SnappyCodecs implements CompressionCodecFactory {

    static final SnappyCodecs INSTANCE = new SnappyCodecs();

    private static final BytesInputCompressor COMPRESSOR = new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            return BytesInput.from(Snappy.compress(bytes.toByteArray()));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.SNAPPY;
        }

        @Override
        public void release() {
        }
    };

    private static final BytesInputDecompressor DECOMPRESSOR = new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            return BytesInput.from(Snappy.uncompress(bytes.toByteArray()));
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.get(in);
            output.put(Snappy.uncompress(in));
        }

        @Override
        public void release() {
        }
    };

    private SnappyCodecs() {
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        require(codecName);
        return COMPRESSOR;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        require(codecName);
        return DECOMPRESSOR;
    }

    private static void require(CompressionCodecName codecName) {
        if (codecName != CompressionCodecName.SNAPPY) {
            throw new IllegalArgumentException("only SNAPPY is configured, not " + codecName);
        }
    }

    @Override
    public void release() {
    }
}
