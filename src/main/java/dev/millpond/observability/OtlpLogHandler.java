package dev.millpond.observability;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.logs.LogRecordBuilder;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Level;

/**
 * Bridges JBoss LogManager records (what Quarkus and {@code org.jboss.logging} write to) into an OpenTelemetry
 * {@link Logger}. Only maps; batching and sending belong to the SDK's processor behind {@code otel}.
 */
final class OtlpLogHandler extends ExtHandler {

    static final AttributeKey<String> LOGGER = AttributeKey.stringKey("logger");
    static final AttributeKey<String> THREAD = AttributeKey.stringKey("thread");
    static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
    static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey.stringKey("exception.stacktrace");

    /*
     * The exporter reports its own failures through java.util.logging, which lands on this handler; exporting those
     * would feed every failed export back into the next batch. OkHttp (the exporter's sender) logs the same way.
     */
    private static final String[] OWN_LOGGERS = {"io.opentelemetry.", "okhttp3."};

    private final Logger otel;

    OtlpLogHandler(Logger otel) {
        this.otel = otel;
        setFilter(new RedactingLogFilter());
    }

    @Override
    protected void doPublish(ExtLogRecord record) {
        if (isOwnLogger(record.getLoggerName())) {
            return;
        }
        LogRecordBuilder builder = otel.logRecordBuilder()
                .setTimestamp(record.getInstant())
                .setSeverity(severityOf(record.getLevel()))
                .setSeverityText(PythonLevelNames.nameOf(record.getLevel()))
                .setBody(record.getFormattedMessage());
        if (record.getLoggerName() != null) {
            builder.setAttribute(LOGGER, record.getLoggerName());
        }
        if (record.getThreadName() != null) {
            builder.setAttribute(THREAD, record.getThreadName());
        }
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            builder.setAttribute(EXCEPTION_TYPE, thrown instanceof RedactedThrowable r ? r.originalType()
                    : thrown.getClass().getName());
            if (thrown.getMessage() != null) {
                builder.setAttribute(EXCEPTION_MESSAGE, thrown.getMessage());
            }
            builder.setAttribute(EXCEPTION_STACKTRACE, stackTrace(thrown));
        }
        builder.emit();
    }

    /** JBoss and java.util.logging levels share one int scale; thresholds rather than a table cover both. */
    static Severity severityOf(Level level) {
        int value = level.intValue();
        if (value >= org.jboss.logmanager.Level.FATAL.intValue()) {
            return Severity.FATAL;
        }
        if (value >= org.jboss.logmanager.Level.ERROR.intValue()) {
            return Severity.ERROR;
        }
        if (value >= org.jboss.logmanager.Level.WARN.intValue()) {
            return Severity.WARN;
        }
        if (value >= org.jboss.logmanager.Level.INFO.intValue()) {
            return Severity.INFO;
        }
        if (value >= org.jboss.logmanager.Level.DEBUG.intValue()) {
            return Severity.DEBUG; // includes java.util.logging CONFIG
        }
        return Severity.TRACE;
    }

    private static boolean isOwnLogger(String name) {
        if (name == null) {
            return false;
        }
        for (String prefix : OWN_LOGGERS) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String stackTrace(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    // The SDK provider's lifecycle is OtlpLogExport's; flush/close on the handler have nothing of their own to do.
    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
