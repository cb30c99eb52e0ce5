package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import dev.millpond.config.IncludeValuesMode;
import dev.millpond.config.IncludeValuesPolling;
import dev.millpond.observability.MillpondMetrics;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One poll at a time: fetch, parse, run the damping rules, publish, export. Both URL modes run the same damped set
 * with the static values as pins; only authoritative mode publishes its result, so the shadow prober's size and
 * pending-removal gauges predict exactly what a flip would serve. Scheduling lives in {@link IncludeValuesSource};
 * tests call {@link #pollOnce()} directly.
 */
final class IncludeValuesPoller {

    private static final Logger LOG = Logger.getLogger(IncludeValuesPoller.class);

    private final IncludeValuesMode mode;
    private final IncludeValuesPolling polling;
    private final EndpointClient endpoint;
    private final DampedIncludeSet damped;
    private final AtomicReference<FilterValues> effective;
    private final MillpondMetrics metrics;
    private final Clock clock;
    private volatile String lastFailure = "no poll yet";

    /** @param maxSetBytes the most heap a served set may take (the allowlist's share of the memory budget) */
    IncludeValuesPoller(IncludeValuesMode mode, IncludeValuesPolling polling, FilterValues pins, long maxSetBytes,
                        MillpondMetrics metrics, Clock clock) {
        if (mode == IncludeValuesMode.STATIC) {
            throw new IllegalArgumentException("static mode does not poll");
        }
        this.mode = mode;
        this.polling = polling;
        this.endpoint = new EndpointClient(polling, maxSetBytes);
        this.damped = new DampedIncludeSet(pins, polling.removalPolls());
        this.effective = new AtomicReference<>(pins);
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The effective set: a volatile read, never blocking. Shadow mode keeps serving the static list. */
    Supplier<FilterValues> effectiveSet() {
        return effective::get;
    }

    boolean pollOnce() throws InterruptedException {
        return pollOnce(polling.requestTimeout());
    }

    /** @return true when the poll succeeded (refused ones included), false when it failed and the set was kept */
    synchronized boolean pollOnce(Duration timeout) throws InterruptedException {
        ServedValues served;
        try {
            served = endpoint.fetch(timeout);
        } catch (PollFailure | RuntimeException e) {
            lastFailure = e.getMessage();
            metrics.includeValuesPollFailed();
            LOG.warnf("Include-values poll of %s failed: %s; keeping the last set (%d values)",
                    polling.urlForLogs(), e.getMessage(), effective.get().size());
            return false;
        }
        PollOutcome outcome = damped.apply(served);
        if (mode == IncludeValuesMode.AUTHORITATIVE) {
            effective.set(damped.snapshot());
            metrics.includeValuesChanges("add", outcome.added().size());
            metrics.includeValuesChanges("remove", outcome.removed().size());
        }
        export(outcome);
        log(outcome);
        return true;
    }

    private void export(PollOutcome outcome) {
        outcome.verdict().refusalReason().ifPresent(metrics::includeValuesRefused);
        metrics.includeValuesPolled(damped.snapshot().size(), damped.pendingRemovals(), clock.millis() / 1000.0);
        metrics.includeValuesPinned(damped.pinned());
        damped.pinsNotServed().ifPresent(metrics::includeValuesPinnedOnly);
        if (mode == IncludeValuesMode.SHADOW) {
            // The static list is the pin set, so "only static" is the pins the endpoint does not serve.
            damped.pinsNotServed().ifPresent(onlyStatic ->
                    metrics.includeValuesShadowDiff(onlyStatic, damped.servedNotPinned().orElseThrow()));
        }
    }

    private void log(PollOutcome outcome) {
        String applied = mode == IncludeValuesMode.AUTHORITATIVE ? "" : " (shadow: not applied)";
        outcome.verdict().refusalReason().ifPresent(reason -> LOG.warnf(
                "Include-values poll refused (%s): keeping the set, countdowns frozen%s", reason,
                outcome.added().isEmpty() ? "" : "; " + outcome.added().size() + " additions applied" + applied));
        if (outcome.changedMembership()) {
            LOG.infof("Include-values set changed: +%d -%d, now %d values%s", outcome.added().size(),
                    outcome.removed().size(), damped.snapshot().size(), applied);
        }
    }

    String lastFailure() {
        return lastFailure;
    }

    IncludeValuesPolling polling() {
        return polling;
    }
}
