package dev.millpond.config;

import java.util.Locale;

/** KAFKA_AUTO_OFFSET_RESET: trimmed, lower-cased, only earliest/latest; empty is rejected. */
public enum AutoOffsetReset {
    EARLIEST("earliest"),
    LATEST("latest");

    private final String kafkaValue;

    AutoOffsetReset(String kafkaValue) {
        this.kafkaValue = kafkaValue;
    }

    /** The value for the Java client's {@code auto.offset.reset}. */
    public String kafkaValue() {
        return kafkaValue;
    }

    static AutoOffsetReset parse(String raw) {
        String v = raw.strip().toLowerCase(Locale.ROOT);
        for (AutoOffsetReset r : values()) {
            if (r.kafkaValue.equals(v)) {
                return r;
            }
        }
        throw new ConfigException("KAFKA_AUTO_OFFSET_RESET must be 'earliest' or 'latest', got '" + raw + "'");
    }
}
