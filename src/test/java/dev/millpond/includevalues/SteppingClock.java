package dev.millpond.includevalues;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A wall clock the test sets, so {@code last_success_timestamp_seconds} has an exact expected value. */
final class SteppingClock extends Clock {
    private volatile Instant now;

    SteppingClock(Instant start) {
        this.now = start;
    }

    void advanceSeconds(long seconds) {
        now = now.plusSeconds(seconds);
    }

    double epochSeconds() {
        return now.toEpochMilli() / 1000.0;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
