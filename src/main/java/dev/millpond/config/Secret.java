package dev.millpond.config;

import java.util.Objects;

/** A value that must never be logged: {@link #toString()} is redacted, {@link #reveal()} is explicit. */
public final class Secret {
    private static final String REDACTED = "***";
    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value);
    }

    public static Secret of(String value) {
        return new Secret(value);
    }

    /** The plain value, for the one place that hands it to a driver. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return REDACTED;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret other && other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
