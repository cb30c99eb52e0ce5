package dev.millpond.observability;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * {@link RedactingLogFilter}'s rule for plain {@code java.util.logging} records, as the maintenance tools log them
 * (JBoss Logging over the JDK's logging, outside Quarkus): the formatted message and the exception chain redacted
 * before the handler formats them. It never drops a record.
 */
public final class RedactingRecordFilter implements Filter {

    /** Only its {@code formatMessage}, which is stateless, is used. */
    private static final SimpleFormatter MESSAGE_FORMAT = new SimpleFormatter();

    private final SecretRedactor redactor;

    public RedactingRecordFilter(SecretRedactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        String formatted = record.getParameters() == null ? record.getMessage() : MESSAGE_FORMAT.formatMessage(record);
        String redacted = redactor.redact(formatted);
        if (formatted != null && !formatted.equals(redacted)) {
            record.setMessage(redacted);
            record.setParameters(null);
            record.setResourceBundle(null);
        }
        record.setThrown(RedactedThrowable.ifNeeded(record.getThrown(), redactor));
        return true;
    }
}
