package dev.millpond.observability;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A stand-in for a logged exception whose text carried a secret: it prints as the original would (the original's
 * class name, its message with the secrets masked, its stack, causes and suppressed exceptions, each redacted the same
 * way), so log formatters that call {@code printStackTrace} or {@code toString} show everything but the secret.
 */
public final class RedactedThrowable extends Throwable {

    private final String originalType;

    private RedactedThrowable(String originalType, String message) {
        super(message);
        this.originalType = originalType;
    }

    /** {@code thrown} itself when nothing in its printed form needs redaction (or it is null or already redacted). */
    static Throwable ifNeeded(Throwable thrown, SecretRedactor redactor) {
        if (thrown == null || thrown instanceof RedactedThrowable) {
            return thrown;
        }
        java.io.StringWriter out = new java.io.StringWriter();
        thrown.printStackTrace(new java.io.PrintWriter(out));
        return redactor.needsRedaction(out.toString()) ? of(thrown, redactor) : thrown;
    }

    static RedactedThrowable of(Throwable original, SecretRedactor redactor) {
        return copy(original, redactor, new IdentityHashMap<>());
    }

    private static RedactedThrowable copy(Throwable t, SecretRedactor redactor, Map<Throwable, RedactedThrowable> seen) {
        RedactedThrowable done = seen.get(t);
        if (done != null) {
            return done;
        }
        RedactedThrowable copy = new RedactedThrowable(t.getClass().getName(), redactor.redact(t.getMessage()));
        seen.put(t, copy);
        copy.setStackTrace(t.getStackTrace());
        if (t.getCause() != null && t.getCause() != t) {
            copy.initCause(copy(t.getCause(), redactor, seen));
        }
        for (Throwable s : t.getSuppressed()) {
            copy.addSuppressed(copy(s, redactor, seen));
        }
        return copy;
    }

    /** The class name of the exception this stands for. */
    public String originalType() {
        return originalType;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message != null ? originalType + ": " + message : originalType;
    }
}
