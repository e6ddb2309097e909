// The one servlet of the Tomcat template, mapped to "/" and dispatching on the path. In blocking
// mode (variants "sync" and "virtual") /file is read with a blocking read and written with a
// blocking write, and /sleep holds its thread. In async mode (variant "async") /sleep releases its
// thread through AsyncContext and answers from a timer, and /file is read with an
// AsynchronousFileChannel and written with a WriteListener (servlet non-blocking output), so no
// container thread waits on the disk or on a slow client.

package benchlab.tomcat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

final class BenchServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] HELLO = "hello world\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII);
    /** Async writes go out in pieces so that isReady() gets a say between them. */
    private static final int CHUNK = 16 * 1024;

    private final boolean async;
    private final Path payload;
    /** The payload read at start; served when `cacheFile` is on. */
    private final byte[] cached;
    private final boolean cacheFile;
    /** One timer thread answers every sleeping async request. */
    private final transient ScheduledExecutorService timer;

    BenchServlet(boolean async, Path payload, byte[] cached, boolean cacheFile) {
        this.async = async;
        this.payload = payload;
        this.cached = cached;
        this.cacheFile = cacheFile;
        this.timer = async ? Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sleep-timer");
            thread.setDaemon(true);
            return thread;
        }) : null;
    }

    @Override
    public void destroy() {
        if (timer != null) timer.shutdownNow();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        // Tomcat drops the body of a HEAD response itself.
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD");
            send(response, 405, "text/plain", "method not allowed\n".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (request.getRequestURI()) {
            case "/hello" -> send(response, 200, "text/plain", HELLO);
            case "/health" -> send(response, 200, "text/plain", OK);
            case "/json" -> send(response, 200, "application/json", JSON);
            case "/file" -> file(request, response);
            case "/fib" -> {
                int n = Endpoints.intParam(request.getParameter("n"), Endpoints.FIB_DEFAULT, Endpoints.FIB_MAX);
                if (n < 0) sendText(response, 400, Endpoints.badParam("n", Endpoints.FIB_MAX));
                else sendText(response, 200, Endpoints.fib(n) + "\n");
            }
            case "/concat" -> {
                int n = Endpoints.intParam(request.getParameter("n"), Endpoints.CONCAT_DEFAULT, Endpoints.CONCAT_MAX);
                if (n < 0) sendText(response, 400, Endpoints.badParam("n", Endpoints.CONCAT_MAX));
                else sendText(response, 200, Endpoints.concat(n));
            }
            case "/sleep" -> sleep(request, response);
            default -> send(response, 404, "text/plain", "not found\n".getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static void sendText(HttpServletResponse response, int status, String body) throws IOException {
        send(response, status, "text/plain", body.getBytes(StandardCharsets.UTF_8));
    }

    /** A whole body with its length; the output stream, not the writer, so no charset is added to the type. */
    private static void send(HttpServletResponse response, int status, String type, byte[] body) throws IOException {
        response.setStatus(status);
        response.setContentType(type);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private void sleep(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int ms = Endpoints.intParam(request.getParameter("ms"), Endpoints.SLEEP_DEFAULT, Endpoints.SLEEP_MAX);
        if (ms < 0) {
            sendText(response, 400, Endpoints.badParam("ms", Endpoints.SLEEP_MAX));
            return;
        }
        byte[] body = ("slept " + ms + " ms\n").getBytes(StandardCharsets.US_ASCII);
        if (!async) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                response.sendError(503);
                return;
            }
            send(response, 200, "text/plain", body);
            return;
        }
        AsyncContext context = request.startAsync();
        // Tomcat's default async timeout is 30 s; the contract allows sleeps up to 60 s.
        context.setTimeout(ms + 30_000L);
        timer.schedule(() -> {
            try {
                send((HttpServletResponse) context.getResponse(), 200, "text/plain", body);
            } catch (IOException | IllegalStateException gone) {
                // the client left while we slept
            } finally {
                context.complete();
            }
        }, ms, TimeUnit.MILLISECONDS);
    }

    private void file(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!async) {
            send(response, 200, "application/octet-stream", cacheFile ? cached : Files.readAllBytes(payload));
            return;
        }
        AsyncContext context = request.startAsync();
        if (cacheFile) {
            writeNonBlocking(context, cached);
            return;
        }
        AsynchronousFileChannel channel;
        ByteBuffer buffer;
        try {
            channel = AsynchronousFileChannel.open(payload, StandardOpenOption.READ);
            buffer = ByteBuffer.allocate(Math.toIntExact(channel.size()));
        } catch (IOException | ArithmeticException error) {
            fail(context, error);
            return;
        }
        channel.read(buffer, 0, null, new CompletionHandler<Integer, Void>() {
            @Override
            public void completed(Integer count, Void attachment) {
                if (count >= 0 && buffer.hasRemaining()) {
                    // A short read: go on from where it stopped.
                    channel.read(buffer, buffer.position(), null, this);
                    return;
                }
                close(channel);
                writeNonBlocking(context, buffer.array());
            }

            @Override
            public void failed(Throwable error, Void attachment) {
                close(channel);
                fail(context, error);
            }
        });
    }

    /** Writes the body through a WriteListener, a chunk at a time while the connection can take it. */
    private static void writeNonBlocking(AsyncContext context, byte[] body) {
        HttpServletResponse response = (HttpServletResponse) context.getResponse();
        response.setStatus(200);
        response.setContentType("application/octet-stream");
        response.setContentLength(body.length);
        ServletOutputStream out;
        try {
            out = response.getOutputStream();
        } catch (IOException error) {
            fail(context, error);
            return;
        }
        out.setWriteListener(new WriteListener() {
            private int offset;

            @Override
            public void onWritePossible() throws IOException {
                while (out.isReady()) {
                    if (offset >= body.length) {
                        context.complete();
                        return;
                    }
                    int length = Math.min(CHUNK, body.length - offset);
                    out.write(body, offset, length);
                    offset += length;
                }
            }

            @Override
            public void onError(Throwable error) {
                context.complete();
            }
        });
    }

    private static void fail(AsyncContext context, Throwable error) {
        System.err.println("benchlab-tomcat: /file failed: " + error);
        try {
            ((HttpServletResponse) context.getResponse()).sendError(500);
        } catch (IOException | IllegalStateException ignored) {
            // nothing more to tell the client
        }
        context.complete();
    }

    private static void close(AsynchronousFileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
