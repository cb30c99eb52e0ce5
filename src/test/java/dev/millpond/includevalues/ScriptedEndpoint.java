package dev.millpond.includevalues;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on 127.0.0.1:0 that answers each request with the next scripted response, and records what
 * it received. Once the script runs out it repeats the last response (a steady endpoint); with no script at all it
 * answers 500. Handlers run on their own threads so a deliberately slow answer does not hold up the next request.
 */
final class ScriptedEndpoint implements AutoCloseable {

    /** One scripted answer. */
    record Response(int status, String body, Map<String, String> headers, Duration delay) {
        static Response json(String body) {
            return new Response(200, body, Map.of("Content-Type", "application/json"), Duration.ZERO);
        }

        static Response status(int status) {
            return new Response(status, "", Map.of(), Duration.ZERO);
        }

        static Response redirectTo(URI location, int status) {
            return new Response(status, "", Map.of("Location", location.toString()), Duration.ZERO);
        }

        Response delayedBy(Duration d) {
            return new Response(status, body, headers, d);
        }
    }

    /** What one request carried. */
    record Received(String path, Headers headers) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-endpoint");
        t.setDaemon(true);
        return t;
    });
    private final Deque<Response> script = new ArrayDeque<>();
    private Response last = Response.status(500);
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    ScriptedEndpoint() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Append answers to the script, in order. */
    synchronized ScriptedEndpoint then(Response... responses) {
        script.addAll(List.of(responses));
        return this;
    }

    /** Shorthand: the next answer is this JSON body with 200. */
    ScriptedEndpoint thenJson(String body) {
        return then(Response.json(body));
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/include-values");
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    private synchronized Response next() {
        Response r = script.poll();
        if (r != null) {
            last = r;
        }
        return last;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            received.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders()));
            Response r = next();
            if (!r.delay().isZero() && closing.await(r.delay().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            r.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(r.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client gave up (a timeout under test): nothing to answer
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }
}
