package dev.millpond.app;

/** Kafka stayed unreachable at startup past the outage budget; the message is the one line to log. */
final class KafkaStartupException extends RuntimeException {
    KafkaStartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
