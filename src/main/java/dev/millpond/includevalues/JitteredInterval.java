package dev.millpond.includevalues;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * The delay before each next poll: {@code interval·U(0.9, 1.1)}, drawn afresh every time so a fleet of replicas
 * started together drifts apart instead of hitting the endpoint in lockstep.
 */
final class JitteredInterval {

    static final double LOW = 0.9;
    static final double HIGH = 1.1;

    private final Duration interval;
    private final DoubleSupplier unitRandom;

    /** @param unitRandom uniform in [0, 1), e.g. {@code ThreadLocalRandom.current()::nextDouble} */
    JitteredInterval(Duration interval, DoubleSupplier unitRandom) {
        this.interval = interval;
        this.unitRandom = unitRandom;
    }

    Duration next() {
        double factor = LOW + (HIGH - LOW) * unitRandom.getAsDouble();
        return Duration.ofNanos(Math.round(interval.toNanos() * factor));
    }
}
