package dev.millpond.observability;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** A real OTLP/HTTP endpoint on 127.0.0.1 that records every request and answers with a fixed status. */
final class OtlpReceiver implements AutoCloseable {

    record Request(String method, String path, String authorization, String contentType, byte[] body) {
        String bodyText() {
            // Protobuf carries strings as raw UTF-8 bytes, so a text view is enough to find them.
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    OtlpReceiver(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
            // An empty body is a valid (empty) ExportLogsServiceResponse.
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.start();
    }

    String logsEndpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/i/v1/logs";
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
