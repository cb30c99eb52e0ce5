package dev.millpond.config;

import java.util.Locale;

/**
 * LOG_LEVEL, with Python's level names. Python's {@code logging} accepts exactly these names (plus the
 * aliases FATAL and WARN); we also accept any case and surrounding whitespace. Unset or empty means INFO.
 */
public enum LogLevel {
    CRITICAL,
    ERROR,
    WARNING,
    INFO,
    DEBUG,
    NOTSET;

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
