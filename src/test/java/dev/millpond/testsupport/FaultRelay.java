package dev.millpond.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 between a client and one service (the Postgres catalog, the S3 server) that injects the
 * faults a real network and a real dependency have: the service going away ({@link #stop()}: connections reset, new
 * ones refused) and coming back on the same port ({@link #start()}), connections reset under a live client
 * ({@link #resetConnections()}), latency ({@link #delay(Duration)}), a service that accepts and never answers
 * ({@link #blackhole(boolean)}), and for HTTP services an overloaded server that answers every request with 503
 * ({@link #serviceUnavailable(boolean)}).
 *
 * <p>Hand-written rather than a library (Toxiproxy needs its own server binary): a thread per direction per
 * connection is plenty for a test's few connections.
 */
public final class FaultRelay implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FaultRelay.class.getName());
    private static final byte[] UNAVAILABLE_BODY = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown"
            + "</Code><Message>Please reduce your request rate.</Message></Error>").getBytes(StandardCharsets.UTF_8);

    private final String name;
    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicLong relayedChunks = new AtomicLong();
    private volatile ServerSocket server;
    private volatile long delayMillis;
    private volatile boolean unavailable;
    private volatile boolean blackhole;

    private FaultRelay(String name, InetSocketAddress target, int port) {
        this.name = name;
        this.target = target;
        this.port = port;
    }

    /** A running relay on a free loopback port in front of {@code host:port}. */
    public static FaultRelay start(String name, String host, int targetPort) {
        FaultRelay relay = new FaultRelay(name, new InetSocketAddress(host, targetPort), LoopbackPorts.freePort());
        relay.start();
        return relay;
    }

    public String host() {
        return LoopbackPorts.HOST;
    }

    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:port}, the form DuckDB's {@code s3_endpoint} takes. */
    public String endpoint() {
        return host() + ":" + port;
    }

    /** Connections accepted so far, to check that a client really went through the relay. */
    public int acceptedConnections() {
        return accepted.get();
    }

    /**
     * Chunks passed on so far, either way: a test that must act while a client's traffic is in flight (a slowed upload)
     * waits for this to move instead of guessing a moment.
     */
    public long relayedChunks() {
        return relayedChunks.get();
    }

    /** Listens again on the same port (the service is back). No-op while running. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(LoopbackPorts.HOST), port), 50);
            server = s;
            Thread accept = new Thread(() -> acceptLoop(s), "relay-" + name + "-accept");
            accept.setDaemon(true);
            accept.start();
            LOG.log(System.Logger.Level.INFO, "relay {0} up on {1} -> {2}", name, port, target);
        } catch (IOException e) {
            throw new UncheckedIOException("relay " + name + " cannot listen on " + port, e);
        }
    }

    /** The service is gone: open connections are reset and new ones refused until {@link #start()}. */
    public synchronized void stop() {
        ServerSocket s = server;
        server = null;
        if (s != null) {
            closeQuietly(s);
        }
        resetConnections();
        LOG.log(System.Logger.Level.INFO, "relay {0} down", name);
    }

    /**
     * New connections are refused from now on, while open ones keep working (a failover that leaves established
     * sessions alone); {@link #start()} accepts again.
     */
    public synchronized void refuseNewConnections() {
        ServerSocket s = server;
        server = null;
        if (s != null) {
            closeQuietly(s);
        }
        LOG.log(System.Logger.Level.INFO, "relay {0} refusing new connections", name);
    }

    /** Resets (TCP RST) every open connection; new ones are accepted as usual. */
    public void resetConnections() {
        for (Socket socket : sockets) {
            try {
                socket.setSoLinger(true, 0);
            } catch (SocketException ignored) {
                // already closed
            }
            closeQuietly(socket);
        }
        sockets.clear();
    }

    /** Holds every chunk of data this long before forwarding it, in both directions; zero turns it off. */
    public void delay(Duration delay) {
        delayMillis = delay.toMillis();
    }

    /**
     * While on, every new connection is answered as an overloaded S3 answers: one {@code 503 Slow Down} to its first
     * request, then the connection closes; the service behind is not contacted.
     */
    public void serviceUnavailable(boolean on) {
        unavailable = on;
        if (on) {
            resetConnections();
        }
    }

    /**
     * While on, the service is a black hole: connections are accepted and whatever is sent is read and dropped, never
     * answered, nothing behind the relay is contacted (a host that went silent, a proxy whose backend is gone, with
     * no server-side timeout to end it). Open connections go silent too; turned off, new connections work again (the
     * silenced ones stay broken: what they sent meanwhile is gone).
     */
    public void blackhole(boolean on) {
        blackhole = on;
    }

    private void acceptLoop(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                return; // stopped
            }
            accepted.incrementAndGet();
            Thread t = new Thread(() -> serve(client), "relay-" + name + "-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket client) {
        sockets.add(client);
        if (unavailable) {
            answerUnavailable(client);
            return;
        }
        if (blackhole) {
            swallow(client);
            return;
        }
        Socket upstream = new Socket();
        try {
            upstream.connect(target, 5_000);
        } catch (IOException e) {
            closeQuietly(upstream);
            closeQuietly(client);
            sockets.remove(client);
            return;
        }
        sockets.add(upstream);
        Thread back = new Thread(() -> copy(upstream, client), "relay-" + name + "-back");
        back.setDaemon(true);
        back.start();
        copy(client, upstream);
    }

    private void copy(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (blackhole) {
                    continue;
                }
                long d = delayMillis;
                if (d > 0) {
                    Thread.sleep(d);
                }
                out.write(buffer, 0, n);
                out.flush();
                relayedChunks.incrementAndGet();
            }
        } catch (IOException | InterruptedException e) {
            // one side went away: close both below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    /** Reads and drops everything the client sends until it gives up. */
    private void swallow(Socket client) {
        byte[] sink = new byte[8192];
        try (InputStream in = client.getInputStream()) {
            while (in.read(sink) >= 0) {
                // never answered
            }
        } catch (IOException e) {
            // the client gave up
        } finally {
            closeQuietly(client);
            sockets.remove(client);
        }
    }

    /** Reads the request head, answers 503, drains briefly so the client reads the answer rather than a reset. */
    private void answerUnavailable(Socket client) {
        try {
            client.setSoTimeout(2_000);
            InputStream in = client.getInputStream();
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            for (int b; matched < 4 && (b = in.read()) >= 0; ) {
                matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            OutputStream out = client.getOutputStream();
            out.write(("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: "
                    + UNAVAILABLE_BODY.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(UNAVAILABLE_BODY);
            out.flush();
            client.shutdownOutput();
            byte[] sink = new byte[8192];
            long deadline = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < deadline && in.read(sink) >= 0) {
                // discard the request body
            }
        } catch (IOException e) {
            // the client gave up first
        } finally {
            closeQuietly(client);
            sockets.remove(client);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing on a fault path
        }
    }

    @Override
    public void close() {
        stop();
    }
}
