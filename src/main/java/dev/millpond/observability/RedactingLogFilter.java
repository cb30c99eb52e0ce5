package dev.millpond.observability;

import io.quarkus.logging.LoggingFilter;
import org.jboss.logmanager.ExtLogRecord;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * The logging pipeline's one redaction point: installed on every handler (the console, whether text or JSON, by
 * {@code quarkus.log.console.filter}; the OTLP export by {@link OtlpLogExport}), it rewrites each record before the
 * handler formats it, so no secret reaches stdout or the logs backend — neither in the app's own messages nor in the
 * texts of exceptions from DuckDB, the Kafka client or HTTP clients. It never drops a record.
 */
@LoggingFilter(name = RedactingLogFilter.NAME)
public final class RedactingLogFilter implements Filter {

    public static final String NAME = "millpond-redaction";

    private final SecretRedactor redactor;

    public RedactingLogFilter() {
        this(SecretRedactor.fromEnvironment(System.getenv()));
    }

    RedactingLogFilter(SecretRedactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            String formatted = ext.getFormattedMessage();
            String redacted = redactor.redact(formatted);
            if (formatted != null && !formatted.equals(redacted)) {
                ext.setMessage(redacted, ExtLogRecord.FormatStyle.NO_FORMAT);
                ext.setParameters(null);
            }
        } else if (redactor.needsRedaction(record.getMessage())) {
            record.setMessage(redactor.redact(record.getMessage()));
        }
        Throwable thrown = record.getThrown();
        if (thrown != null && !(thrown instanceof RedactedThrowable) && redactor.needsRedaction(stackTrace(thrown))) {
            record.setThrown(RedactedThrowable.of(thrown, redactor));
        }
        return true;
    }

    private static String stackTrace(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
