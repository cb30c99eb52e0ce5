package dev.millpond.config;

import java.util.Locale;

/**
 * LOG_LEVEL, with Python's level names: the original upper-cases the value and hands it to {@code logging}, which
 * accepts exactly these names plus the aliases FATAL and WARN. We also accept surrounding whitespace. Unset or empty
 * means INFO. Each maps to the JBoss LogManager level with the same meaning.
 */
public enum LogLevel {
    CRITICAL("FATAL"),
    ERROR("ERROR"),
    WARNING("WARN"),
    INFO("INFO"),
    DEBUG("DEBUG"),
    /**
     * On Python's root logger NOTSET lets everything through; DEBUG is the lowest level Quarkus builds log records
     * for by default ({@code quarkus.log.min-level}), so it means the same here without Quarkus warning that it
     * promoted a lower level.
     */
    NOTSET("DEBUG");

    static final String VARIABLE = "LOG_LEVEL";

    private final String jbossLevel;

    LogLevel(String jbossLevel) {
        this.jbossLevel = jbossLevel;
    }

    /** The {@code quarkus.log.level} value with this level's meaning. */
    public String jbossLevel() {
        return jbossLevel;
    }

    static LogLevel parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return INFO;
        }
        String v = raw.strip().toUpperCase(Locale.ROOT);
        switch (v) {
            case "FATAL":
                return CRITICAL;
            case "WARN":
                return WARNING;
            default:
                for (LogLevel l : values()) {
                    if (l.name().equals(v)) {
                        return l;
                    }
                }
                throw new ConfigException("LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG, NOTSET, got '"
                        + raw + "'");
        }
    }
}
