package dev.millpond.testsupport;

import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The lines one class logs while a test runs in this JVM (the test JVM runs JBoss LogManager, as the app does), with
 * their level, so a test can hold the app to the log lines the failure table (docs/operating.md) promises an operator.
 */
public final class CapturedLog implements AutoCloseable {

    /** One formatted line and its level. */
    public record Line(Level level, String message) {
        public boolean isWarning() {
            return level.intValue() == Level.WARNING.intValue();
        }
    }

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final ExtHandler handler = new ExtHandler() {
        @Override
        protected void doPublish(ExtLogRecord record) {
            lines.add(new Line(record.getLevel(), record.getFormattedMessage()));
        }
    };

    private CapturedLog(Class<?> source) {
        this.logger = Logger.getLogger(source.getName());
        logger.addHandler(handler);
    }

    /** Starts capturing what {@code source}'s logger (named after the class, as JBoss Logging names it) logs. */
    public static CapturedLog of(Class<?> source) {
        return new CapturedLog(source);
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    public List<String> warnings() {
        return lines.stream().filter(Line::isWarning).map(Line::message).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
