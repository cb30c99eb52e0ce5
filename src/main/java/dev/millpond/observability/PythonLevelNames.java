package dev.millpond.observability;

import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * The level names the original prints — Python's {@code CRITICAL}, {@code ERROR}, {@code WARNING}, {@code INFO},
 * {@code DEBUG} — in place of JBoss's {@code FATAL}, {@code WARN}, {@code TRACE} and the JDK's {@code SEVERE},
 * {@code FINE}…: log pipelines match on the name. Each record gets a level of the same severity (the same
 * {@link Level#intValue()}, so every threshold still decides as before) whose name is Python's.
 */
public final class PythonLevelNames {

    /** A level that only renames: the severity of the level it replaces, Python's name for it. */
    static final class PythonLevel extends Level {
        private PythonLevel(String name, int value) {
            super(name, value);
        }
    }

    static final Level CRITICAL = new PythonLevel("CRITICAL", org.jboss.logmanager.Level.FATAL.intValue());
    static final Level ERROR = new PythonLevel("ERROR", org.jboss.logmanager.Level.ERROR.intValue());
    static final Level WARNING = new PythonLevel("WARNING", org.jboss.logmanager.Level.WARN.intValue());
    static final Level INFO = new PythonLevel("INFO", org.jboss.logmanager.Level.INFO.intValue());
    static final Level DEBUG = new PythonLevel("DEBUG", org.jboss.logmanager.Level.DEBUG.intValue());

    private PythonLevelNames() {
    }

    /** Python's name for a severity: the highest Python level at or below it; anything below INFO is DEBUG. */
    public static String nameOf(Level level) {
        return pythonLevel(level).getName();
    }

    /** Gives the record a level of the same severity named as Python names it. */
    static void rename(LogRecord record) {
        Level level = record.getLevel();
        if (level != null && !(level instanceof PythonLevel)) {
            record.setLevel(renamed(level));
        }
    }

    private static Level renamed(Level level) {
        Level python = pythonLevel(level);
        // A level between two of Python's keeps its own severity, so thresholds between them still hold.
        return python.intValue() == level.intValue() ? python : new PythonLevel(python.getName(), level.intValue());
    }

    private static Level pythonLevel(Level level) {
        if (level instanceof PythonLevel) {
            return level;
        }
        int v = level.intValue();
        if (v >= CRITICAL.intValue()) {
            return CRITICAL;
        }
        if (v >= ERROR.intValue()) {
            return ERROR;
        }
        if (v >= WARNING.intValue()) {
            return WARNING;
        }
        if (v >= INFO.intValue()) {
            return INFO;
        }
        return DEBUG;
    }
}
