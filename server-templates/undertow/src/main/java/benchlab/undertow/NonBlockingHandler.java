// Variant "nonblocking" of the Undertow template: one HttpHandler on Undertow's own API, run on the
// I/O threads and never dispatched to the worker pool (the wrk seed's "undertow nonblocking").
// /file goes out with Sender.transferFrom (the kernel copies the file to the socket without an
// I/O thread waiting), /sleep parks the exchange on an XNIO timer of its I/O thread. /fib and
// /concat compute in place: they use CPU, they do not wait.

package benchlab.undertow;

import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

final class NonBlockingHandler implements HttpHandler {
    private static final byte[] HELLO = "hello world\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII);

    private final Path payload;
    private final byte[] cached;
    private final boolean cacheFile;

    NonBlockingHandler(Path payload, byte[] cached, boolean cacheFile) {
        this.payload = payload;
        this.cached = cached;
        this.cacheFile = cacheFile;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        // Undertow drops the body of a HEAD response itself.
        if (!exchange.getRequestMethod().equals(Methods.GET) && !exchange.getRequestMethod().equals(Methods.HEAD)) {
            exchange.getResponseHeaders().put(Headers.ALLOW, "GET, HEAD");
            send(exchange, 405, "text/plain", "method not allowed\n".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (exchange.getRequestPath()) {
            case "/hello" -> send(exchange, 200, "text/plain", HELLO);
            case "/health" -> send(exchange, 200, "text/plain", OK);
            case "/json" -> send(exchange, 200, "application/json", JSON);
            case "/file" -> file(exchange);
            case "/fib" -> {
                int n = Endpoints.intParam(query(exchange, "n"), Endpoints.FIB_DEFAULT, Endpoints.FIB_MAX);
                if (n < 0) sendText(exchange, 400, Endpoints.badParam("n", Endpoints.FIB_MAX));
                else sendText(exchange, 200, Endpoints.fib(n) + "\n");
            }
            case "/concat" -> {
                int n = Endpoints.intParam(query(exchange, "n"), Endpoints.CONCAT_DEFAULT, Endpoints.CONCAT_MAX);
                if (n < 0) sendText(exchange, 400, Endpoints.badParam("n", Endpoints.CONCAT_MAX));
                else sendText(exchange, 200, Endpoints.concat(n));
            }
            case "/sleep" -> sleep(exchange);
            default -> send(exchange, 404, "text/plain", "not found\n".getBytes(StandardCharsets.US_ASCII));
        }
    }

    static String query(HttpServerExchange exchange, String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null ? null : values.peekFirst();
    }

    private static void sendText(HttpServerExchange exchange, int status, String body) {
        send(exchange, status, "text/plain", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpServerExchange exchange, int status, String type, byte[] body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, type);
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
    }

    private void sleep(HttpServerExchange exchange) {
        int ms = Endpoints.intParam(query(exchange, "ms"), Endpoints.SLEEP_DEFAULT, Endpoints.SLEEP_MAX);
        if (ms < 0) {
            sendText(exchange, 400, Endpoints.badParam("ms", Endpoints.SLEEP_MAX));
            return;
        }
        // dispatch() keeps the exchange open after this handler returns; the timer finishes it.
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> exchange.getIoThread().executeAfter(
                () -> sendText(exchange, 200, "slept " + ms + " ms\n"), ms, TimeUnit.MILLISECONDS));
    }

    private void file(HttpServerExchange exchange) {
        if (cacheFile) {
            send(exchange, 200, "application/octet-stream", cached);
            return;
        }
        FileChannel channel;
        long size;
        try {
            channel = FileChannel.open(payload, StandardOpenOption.READ);
            size = channel.size();
        } catch (IOException error) {
            System.err.println("benchlab-undertow: /file failed: " + error);
            send(exchange, 500, "text/plain", "internal error\n".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, size);
        exchange.getResponseSender().transferFrom(channel, new IoCallback() {
            @Override
            public void onComplete(HttpServerExchange done, Sender sender) {
                closeQuietly(channel);
                IoCallback.END_EXCHANGE.onComplete(done, sender);
            }

            @Override
            public void onException(HttpServerExchange failed, Sender sender, IOException error) {
                closeQuietly(channel);
                IoCallback.END_EXCHANGE.onException(failed, sender, error);
            }
        });
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
