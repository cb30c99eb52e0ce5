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
 * so a server that trickles its body cannot hold the poller past it.
 */
final class EndpointClient {

    private final HttpClient client;
    private final IncludeValuesPolling polling;

    EndpointClient(IncludeValuesPolling polling) {
        this.polling = polling;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(polling.requestTimeout())
                .build();
    }

    /** The response body of a 2xx answer within {@code timeout}; anything else is a {@link PollFailure}. */
    byte[] fetch(Duration timeout) throws PollFailure, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(polling.url())
                .GET()
                .timeout(timeout)
                .header("Accept", "application/json");
        polling.auth().ifPresent(a -> request.header(a.headerName(), a.token().reveal()));
        CompletableFuture<HttpResponse<byte[]>> exchange =
                client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> response;
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
}
