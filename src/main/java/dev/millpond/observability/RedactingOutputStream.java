package dev.millpond.observability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An output stream that writes {@link SecretRedactor#redact redacted} text a line at a time: what the maintenance
 * tools print on stdout and stderr outside the logging pipeline (picocli's messages, anything a library prints).
 * A partial line is held until its end, so a secret split across two writes is still seen whole; a line longer than
 * {@value #MAX_LINE} bytes is written in pieces.
 */
public final class RedactingOutputStream extends OutputStream {

    static final int MAX_LINE = 64 * 1024;

    private final OutputStream out;
    private final SecretRedactor redactor;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    public RedactingOutputStream(OutputStream out, SecretRedactor redactor) {
        this.out = out;
        this.redactor = redactor;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n' || line.size() >= MAX_LINE) {
            emit();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    /** Flushes complete lines only; a partial one waits for its end (or {@link #close()}). */
    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Writes a held partial line, then flushes. */
    public synchronized void drain() throws IOException {
        if (line.size() > 0) {
            emit();
        }
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        drain();
        out.close();
    }

    private void emit() throws IOException {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        out.write(redactor.redact(text).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
