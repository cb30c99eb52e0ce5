package dev.millpond.testsupport;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

import java.time.Duration;

/**
 * The one way tests wait for something another thread or process brings about: Awaitility, set up the same way
 * everywhere. The deadline only guards against a hang (be generous: the machine may be loaded); the first check is
 * at once rather than after one poll interval (Awaitility's default); and the condition runs on the test's own thread,
 * as a hand-written loop would, so it may use clients that are not thread-safe. Chain {@code pollInterval},
 * {@code ignoreException} and the like as needed, then {@code until} / {@code untilAsserted}.
 */
public final class Await {

    private Await() {
    }

    /** Waits up to {@code atMost} for what {@code what} names (the name appears in the timeout's message). */
    public static ConditionFactory within(Duration atMost, String what) {
        return Awaitility.await(what).atMost(atMost).pollDelay(Duration.ZERO).pollInSameThread();
    }
}
