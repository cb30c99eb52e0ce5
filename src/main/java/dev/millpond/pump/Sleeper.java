package dev.millpond.pump;

/** Sleeping between retries, as a dependency, so retry tests do not have to wait for real backoff. */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = seconds -> {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    };

    void sleep(double seconds);
}
