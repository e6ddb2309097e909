// One instance of the Vert.x template's HTTP server: a verticle whose request handler runs on its
// event loop. Vert.x spreads connections over the instances that listen on the same port, so the
// "instances" knob is the number of event loops serving requests (the siege seed compared 1 and 4).
// Variant "eventloop" never blocks: /sleep is a timer, /file is sendFile (the kernel copies it).
// Variant "blocking" blocks only where the endpoint itself waits — /sleep's sleep and /file's disk
// read — and moves exactly that onto the worker pool with executeBlocking. CPU work (/fib,
// /concat) stays on the event loop in both: it computes, it does not wait.

package benchlab.vertx;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

final class BenchVerticle extends VerticleBase {
    private static final Buffer HELLO = Buffer.buffer("hello world\n");
    private static final Buffer OK = Buffer.buffer("ok\n");
    private static final Buffer JSON = Buffer.buffer("{\"message\":\"Hello, World!\"}");
    private static final Buffer NOT_FOUND = Buffer.buffer("not found\n");

    private final int port;
    private final boolean blocking;
    private final Path payload;
    private final Buffer cached;
    private final boolean cacheFile;

    BenchVerticle(int port, boolean blocking, Path payload, byte[] cached, boolean cacheFile) {
        this.port = port;
        this.blocking = blocking;
        this.payload = payload;
        this.cached = Buffer.buffer(cached);
        this.cacheFile = cacheFile;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer(new HttpServerOptions().setHost("0.0.0.0").setPort(port))
                .requestHandler(this::handle)
                .listen();
    }

    private void handle(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        // Vert.x leaves the body out of a HEAD response itself.
        if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
            response.putHeader("Allow", "GET, HEAD");
            send(response, 405, "text/plain", Buffer.buffer("method not allowed\n"));
            return;
        }
        switch (request.path()) {
            case "/hello" -> send(response, 200, "text/plain", HELLO);
            case "/health" -> send(response, 200, "text/plain", OK);
            case "/json" -> send(response, 200, "application/json", JSON);
            case "/file" -> file(request.method() == HttpMethod.HEAD, response);
            case "/fib" -> {
                int n = Endpoints.intParam(request.getParam("n"), Endpoints.FIB_DEFAULT, Endpoints.FIB_MAX);
                if (n < 0) sendText(response, 400, Endpoints.badParam("n", Endpoints.FIB_MAX));
                else sendText(response, 200, Endpoints.fib(n) + "\n");
            }
            case "/concat" -> {
                int n = Endpoints.intParam(request.getParam("n"), Endpoints.CONCAT_DEFAULT, Endpoints.CONCAT_MAX);
                if (n < 0) sendText(response, 400, Endpoints.badParam("n", Endpoints.CONCAT_MAX));
                else sendText(response, 200, Endpoints.concat(n));
            }
            case "/sleep" -> sleep(request, response);
            default -> send(response, 404, "text/plain", NOT_FOUND);
        }
    }

    private static void sendText(HttpServerResponse response, int status, String body) {
        send(response, status, "text/plain", Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** Content-Length set here: Vert.x leaves it out of a HEAD response when end(Buffer) would add it. */
    private static void send(HttpServerResponse response, int status, String type, Buffer body) {
        response.setStatusCode(status).putHeader("Content-Type", type).putHeader("Content-Length", String.valueOf(body.length())).end(body);
    }

    private void sleep(HttpServerRequest request, HttpServerResponse response) {
        int ms = Endpoints.intParam(request.getParam("ms"), Endpoints.SLEEP_DEFAULT, Endpoints.SLEEP_MAX);
        if (ms < 0) {
            sendText(response, 400, Endpoints.badParam("ms", Endpoints.SLEEP_MAX));
            return;
        }
        String body = "slept " + ms + " ms\n";
        if (!blocking) {
            // setTimer rejects 0: answer at once.
            if (ms == 0) sendText(response, 200, body);
            else vertx.setTimer(ms, id -> sendText(response, 200, body));
            return;
        }
        // ordered=false: sleeps of one event loop must not queue behind each other.
        vertx.executeBlocking(() -> {
            Thread.sleep(ms);
            return body;
        }, false).onComplete(done -> {
            if (done.succeeded()) sendText(response, 200, done.result());
            else fail(response, done.cause());
        });
    }

    private void file(boolean head, HttpServerResponse response) {
        if (cacheFile) {
            send(response, 200, "application/octet-stream", cached);
            return;
        }
        if (!blocking && head) {
            // sendFile leaves Content-Length out of a HEAD answer: state the file's size instead.
            vertx.fileSystem().props(payload.toString()).onComplete(done -> {
                if (done.succeeded()) {
                    response.setStatusCode(200).putHeader("Content-Type", "application/octet-stream")
                            .putHeader("Content-Length", String.valueOf(done.result().size())).end();
                } else {
                    fail(response, done.cause());
                }
            });
            return;
        }
        if (!blocking) {
            response.setStatusCode(200).putHeader("Content-Type", "application/octet-stream");
            response.sendFile(payload.toString()).onFailure(error -> fail(response, error));
            return;
        }
        vertx.executeBlocking(() -> Files.readAllBytes(payload), false).onComplete(done -> {
            if (done.succeeded()) send(response, 200, "application/octet-stream", Buffer.buffer(done.result()));
            else fail(response, done.cause());
        });
    }

    private static void fail(HttpServerResponse response, Throwable error) {
        System.err.println("benchlab-vertx: request failed: " + error);
        if (!response.headWritten()) sendText(response, 500, "internal error\n");
        else response.reset();
    }
}
