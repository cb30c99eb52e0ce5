package dev.millpond.app;

/** The sink could not be opened at startup; the message is the one line to log (it names what, never a secret). */
final class SinkStartupException extends RuntimeException {
    SinkStartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
