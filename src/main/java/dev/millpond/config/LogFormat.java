package dev.millpond.config;

import java.util.Locale;

/** MILLPOND_LOG_FORMAT: {@code json} (default) gives JSON lines; any other value gives text. */
public enum LogFormat {
    JSON,
    TEXT;

    static final String VARIABLE = "MILLPOND_LOG_FORMAT";

    static LogFormat parse(String raw) {
        if (raw == null) {
            return JSON;
        }
        return raw.strip().toLowerCase(Locale.ROOT).equals("json") ? JSON : TEXT;
    }
}
