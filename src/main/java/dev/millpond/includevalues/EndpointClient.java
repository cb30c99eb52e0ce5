package dev.millpond.includevalues;

import dev.millpond.config.IncludeValuesPolling;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * GETs the include-values URL with the JDK HTTP client. The JDK client rather than the Quarkus REST client because
 * the refusal of redirects must be unconditional and visible here: with {@link HttpClient.Redirect#NEVER} a 3xx is
 * returned as is, and is a failure, so the auth header is only ever sent to the configured host.
 *
 * <p>The timeout bounds the whole exchange, body included ({@code HttpRequest.timeout} alone stops at the headers),
 * so a server that trickles its body cannot hold the poller past it; and the body is capped at
 * {@value #MAX_BODY_BYTES} bytes (a list of a million ids is about 12 MB), so a server that answers without end cannot
 * hold the poller: the read stops at the cap and the poll fails. A 2xx body is parsed as it arrives
 * ({@link ServedArrayParser}) and never held whole; any other answer's body is discarded unread.
 */
final class EndpointClient {

    static final int MAX_BODY_BYTES = 32 * 1024 * 1024;

    private final HttpClient client;
    private final IncludeValuesPolling polling;
    private final int maxBodyBytes;
    private final long maxSetBytes;

    /** @param maxSetBytes the most heap the served set may take (the allowlist's share of the memory budget) */
    EndpointClient(IncludeValuesPolling polling, long maxSetBytes) {
        this(polling, MAX_BODY_BYTES, maxSetBytes);
    }

    EndpointClient(IncludeValuesPolling polling, int maxBodyBytes, long maxSetBytes) {
        this.polling = polling;
        this.maxBodyBytes = maxBodyBytes;
        this.maxSetBytes = maxSetBytes;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(polling.requestTimeout())
                .build();
    }

    /** The values of a 2xx answer within {@code timeout}; anything else is a {@link PollFailure}. */
    ServedValues fetch(Duration timeout) throws PollFailure, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(polling.url())
                .GET()
                .timeout(timeout)
                .header("Accept", "application/json");
        polling.auth().ifPresent(a -> request.header(a.headerName(), a.token().reveal()));
        CompletableFuture<HttpResponse<ServedValues>> exchange = client.sendAsync(request.build(),
                info -> info.statusCode() >= 200 && info.statusCode() < 300
                        ? new ParsedBody(maxBodyBytes, new ServedArrayParser(maxSetBytes))
                        : HttpResponse.BodySubscribers.replacing(null));
        HttpResponse<ServedValues> response;
        try {
            response = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new PollFailure("no complete response within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            for (Throwable c = cause; c != null; c = c.getCause()) {
                if (c instanceof PollFailure refused) {
                    throw refused; // the body is not an allowlist
                }
            }
            if (isBodyTooLarge(cause)) {
                throw new PollFailure("response body larger than " + maxBodyBytes + " bytes refused");
            }
            if (cause instanceof HttpTimeoutException) {
                throw new PollFailure("no complete response within " + timeout.toMillis() + " ms");
            }
            String kind = cause instanceof IOException ? "request failed" : "request could not be made";
            throw new PollFailure(kind + ": " + cause, cause);
        }
        int status = response.statusCode();
        if (status >= 300 && status < 400) {
            // Following it would hand the auth header to whatever host the Location names.
            throw new PollFailure("HTTP " + status + " redirect refused (redirects are never followed)");
        }
        if (status < 200 || status >= 300) {
            throw new PollFailure("HTTP " + status);
        }
        return response.body();
    }

    private static boolean isBodyTooLarge(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BodyTooLarge) {
                return true;
            }
        }
        return false;
    }

    private static final class BodyTooLarge extends IOException {
        BodyTooLarge() {
            super("response body over the cap");
        }
    }

    /**
     * Feeds the body to the parser as it arrives, up to {@code cap} bytes; past the cap, or when the parser refuses
     * what it has read, cancels the exchange and fails.
     */
    private static final class ParsedBody implements HttpResponse.BodySubscriber<ServedValues> {
        private final int cap;
        private final ServedArrayParser parser;
        private final CompletableFuture<ServedValues> body = new CompletableFuture<>();
        private long received;
        private byte[] chunk = new byte[0];
        private java.util.concurrent.Flow.Subscription subscription;

        ParsedBody(int cap, ServedArrayParser parser) {
            this.cap = cap;
            this.parser = parser;
        }

        @Override
        public java.util.concurrent.CompletionStage<ServedValues> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(java.util.List<java.nio.ByteBuffer> items) {
            if (body.isDone()) {
                return;
            }
            try {
                for (java.nio.ByteBuffer item : items) {
                    received += item.remaining();
                    if (received > cap) {
                        throw new BodyTooLarge();
                    }
                    int length = item.remaining();
                    if (chunk.length < length) {
                        chunk = new byte[length];
                    }
                    item.get(chunk, 0, length);
                    parser.feed(chunk, 0, length);
                }
            } catch (BodyTooLarge | PollFailure e) {
                subscription.cancel();
                body.completeExceptionally(e);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            if (body.isDone()) {
                return;
            }
            try {
                body.complete(parser.finish());
            } catch (PollFailure e) {
                body.completeExceptionally(e);
            }
        }
    }
}
