package dev.millpond.observability;

import dev.millpond.config.ProcessEnvironment;
import dev.millpond.config.TestHooks;
import io.quarkus.logging.LoggingFilter;
import org.jboss.logmanager.ExtLogRecord;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * The logging pipeline's one rewrite point: installed on every handler (the console, whether text or JSON, by
 * {@code quarkus.log.console.filter}; the OTLP export by {@link OtlpLogExport}), it rewrites each record before the
 * handler formats it, so no secret reaches stdout or the logs backend — neither in the app's own messages nor in the
 * texts of exceptions from DuckDB, the Kafka client or HTTP clients — and every line carries Python's level name
 * ({@link PythonLevelNames}). It never drops a record.
 */
@LoggingFilter(name = RedactingLogFilter.NAME)
public final class RedactingLogFilter implements Filter {

    public static final String NAME = "millpond-redaction";

    private final SecretRedactor redactor;

    private final boolean on;

    public RedactingLogFilter() {
        // Values from secret files included: ProcessEnvironment reads them before anything can log them.
        this(SecretRedactor.fromEnvironment(ProcessEnvironment.bestEffort()),
                TestHooks.redactionFromSystemProperties());
    }

    RedactingLogFilter(SecretRedactor redactor) {
        this(redactor, true);
    }

    /** {@code on} false only for the leak checks' positive control (a test hook the startup warns about). */
    RedactingLogFilter(SecretRedactor redactor, boolean on) {
        this.redactor = redactor;
        this.on = on;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        PythonLevelNames.rename(record);
        if (!on) {
            return true;
        }
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
        record.setThrown(RedactedThrowable.ifNeeded(record.getThrown(), redactor));
        return true;
    }
}
