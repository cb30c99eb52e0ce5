package dev.millpond.includevalues;

import dev.millpond.config.IncludeValuesConfig;
import dev.millpond.config.IncludeValuesMode;
import dev.millpond.config.IncludeValuesPolling;
import dev.millpond.config.FilterSpec;
import dev.millpond.config.FilterValues;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The include-values source's lifecycle (startup step 10, shutdown step 1): sets the mode gauge, logs the pins,
 * blocks an authoritative start until the first successful poll, then polls on its own thread until stopped.
 *
 * <p>Scheduling: a single daemon thread owned by this object re-arms a one-shot task after every poll with a fresh
 * {@code interval·U(0.9, 1.1)} delay. The Quarkus Scheduler was the first choice and does not fit: its interval
 * triggers fire at one fixed period (no per-run jitter, and the simple scheduler only checks triggers once a
 * second), it has no one-shot job, and the poller must start at a point the pump chooses (after the sink and Kafka,
 * blocking in authoritative mode) and stop before the final flush — an ordering a container-managed job does not
 * give. The owned executor does all of that, and plain unit tests exercise the same code the pod runs.
 */
public final class IncludeValuesSource implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(IncludeValuesSource.class);
    /** Between startup attempts in authoritative mode, capped by the poll interval and the remaining budget. */
    static final Duration STARTUP_RETRY_DELAY = Duration.ofSeconds(1);

    private final IncludeValuesConfig config;
    private final MillpondMetrics metrics;
    private final Optional<FilterValues> staticSet;
    private final Optional<IncludeValuesPoller> poller;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile ScheduledExecutorService executor;
    private JitteredInterval delays;

    /** @param maxSetBytes the most heap a served set may take (the allowlist's share of the memory budget) */
    IncludeValuesSource(IncludeValuesConfig config, long maxSetBytes, MillpondMetrics metrics, Clock clock) {
        this.config = config;
        this.metrics = metrics;
        this.staticSet = config.staticValues().map(FilterSpec::values);
        this.poller = config.polling().map(p -> new IncludeValuesPoller(config.mode(), p, staticSet.orElseThrow(),
                maxSetBytes, metrics, clock));
        // Known from configuration alone, so the series exists from the first scrape: /readyz can turn 200 (the
        // pipeline is open) a moment before start() runs.
        metrics.includeValuesMode(config.mode().wireName());
    }

    /**
     * Created idle; {@link #start()} begins polling. A served set may take the allowlist's share of this JVM's heap
     * ({@link MemoryBudget#includeValuesBytes}).
     */
    public static IncludeValuesSource create(IncludeValuesConfig config, MillpondMetrics metrics) {
        return new IncludeValuesSource(config, MemoryBudget.includeValuesBytes(Runtime.getRuntime().maxMemory()),
                metrics, Clock.systemUTC());
    }

    /**
     * The effective allowlist for the keep filter, to read once per poll batch: a volatile read that never blocks.
     * Empty when no keep filter is configured. In static and shadow mode it is the static list, constant.
     */
    public Optional<Supplier<FilterValues>> effectiveSet() {
        if (poller.isPresent()) {
            return Optional.of(poller.get().effectiveSet());
        }
        return staticSet.map(set -> () -> set);
    }

    public IncludeValuesMode mode() {
        return config.mode();
    }

    /**
     * With a URL, starts polling ({@code mode{…}} = 1 was set at creation). Authoritative mode returns only after a successful
     * poll (a refused one counts: the endpoint answered) and throws once STARTUP_TIMEOUT_S has passed without one.
     */
    public synchronized void start() throws InterruptedException {
        if (poller.isEmpty() || stopped.getCount() == 0 || executor != null) {
            return;
        }
        IncludeValuesPolling polling = poller.get().polling();
        FilterSpec pins = config.staticValues().orElseThrow();
        metrics.includeValuesPinned(pins.values().size());
        LOG.infof("Include-values %s mode, polling %s every %.1fs ±10%%; %d static pins on %s (never removed by the"
                        + " endpoint): %s", config.mode().wireName(), polling.urlForLogs(),
                polling.pollInterval().toMillis() / 1000.0, pins.values().size(), pins.field(),
                pinList(pins.values()));
        if (polling.removalPolls() == 1) {
            LOG.warn("MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS=1 disables removal damping: one successful poll without a"
                    + " value removes it");
        }
        delays = new JitteredInterval(polling.pollInterval(), () -> ThreadLocalRandom.current().nextDouble());
        Duration firstDelay = Duration.ZERO;
        if (config.mode() == IncludeValuesMode.AUTHORITATIVE) {
            awaitFirstSuccess(polling);
            firstDelay = delays.next();
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "millpond-include-values");
            t.setDaemon(true);
            return t;
        });
        schedule(firstDelay);
        if (stopped.getCount() == 0) {
            executor.shutdownNow();
        }
    }

    /** No proceed-on-stale-bootstrap: the pins alone are not the set the operator asked for. */
    private void awaitFirstSuccess(IncludeValuesPolling polling) throws InterruptedException {
        long deadline = System.nanoTime() + polling.startupTimeout().toNanos();
        Duration retryDelay = min(STARTUP_RETRY_DELAY, polling.pollInterval());
        // What the line names: the last failure of an attempt that did not end by running out of the budget. The
        // last attempt gets only what is left of it and, cut short, mostly fails by its timeout, which hides what the
        // attempts before it said (a body refused as too large, an HTTP status); it is named only when it is the one.
        String reason = null;
        while (true) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                Duration timeout = min(polling.requestTimeout(), Duration.ofNanos(remaining));
                if (poller.get().pollOnce(timeout)) {
                    return;
                }
                boolean ranOutOfTheBudget = timeout.compareTo(polling.requestTimeout()) < 0
                        && deadline - System.nanoTime() <= 0;
                if (reason == null || !ranOutOfTheBudget) {
                    reason = poller.get().lastFailure();
                }
            }
            remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IncludeValuesStartupException("MILLPOND_INCLUDE_VALUES_MODE=authoritative: no successful poll"
                        + " of " + polling.urlForLogs() + " within MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S="
                        + polling.startupTimeout().toMillis() / 1000.0 + "s (last error: "
                        + (reason == null ? poller.get().lastFailure() : reason)
                        + "); refusing to start on the static pins alone");
            }
            if (stopped.await(Math.min(retryDelay.toNanos(), remaining), TimeUnit.NANOSECONDS)) {
                throw new IncludeValuesStartupException("Include-values source stopped before its first successful"
                        + " poll");
            }
        }
    }

    private void schedule(Duration delay) {
        if (stopped.getCount() == 0) {
            return;
        }
        try {
            executor.schedule(this::pollAndReschedule, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // stopped concurrently
        }
    }

    private void pollAndReschedule() {
        try {
            poller.get().pollOnce();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException | Error e) {
            LOG.error("Include-values poll crashed; keeping the last set and polling on", e);
        }
        schedule(delays.next());
    }

    /** Stops polling; the last published set stays readable. Idempotent. */
    @Override
    public void close() {
        stopped.countDown();
        // Not synchronized: an authoritative start() holding the monitor wakes on the latch and gives up.
        ScheduledExecutorService e = executor;
        if (e != null) {
            e.shutdownNow();
            try {
                e.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every pin: the static list is configuration, and logging it whole is what makes membership checkable. */
    private static List<?> pinList(FilterValues pins) {
        return pins instanceof FilterValues.Ints ints ? ints.values() : ((FilterValues.Strings) pins).values();
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    IncludeValuesPoller poller() {
        return poller.orElseThrow();
    }
}
