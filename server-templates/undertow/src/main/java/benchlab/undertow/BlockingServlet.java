// Variant "servlet" of the Undertow template: a plain blocking servlet deployed on Undertow's
// servlet container (the wrk seed's "undertow servlet"). Every request runs on a worker thread;
// /file is a blocking read and write, /sleep holds the worker for the whole sleep.

package benchlab.undertow;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

final class BlockingServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] HELLO = "hello world\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII);

    private final Path payload;
    private final byte[] cached;
    private final boolean cacheFile;

    BlockingServlet(Path payload, byte[] cached, boolean cacheFile) {
        this.payload = payload;
        this.cached = cached;
        this.cacheFile = cacheFile;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD");
            send(response, 405, "text/plain", "method not allowed\n".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (request.getRequestURI()) {
            case "/hello" -> send(response, 200, "text/plain", HELLO);
            case "/health" -> send(response, 200, "text/plain", OK);
            case "/json" -> send(response, 200, "application/json", JSON);
            case "/file" -> send(response, 200, "application/octet-stream", cacheFile ? cached : Files.readAllBytes(payload));
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
            case "/sleep" -> {
                int ms = Endpoints.intParam(request.getParameter("ms"), Endpoints.SLEEP_DEFAULT, Endpoints.SLEEP_MAX);
                if (ms < 0) {
                    sendText(response, 400, Endpoints.badParam("ms", Endpoints.SLEEP_MAX));
                    return;
                }
                try {
                    Thread.sleep(ms);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    response.sendError(503);
                    return;
                }
                sendText(response, 200, "slept " + ms + " ms\n");
            }
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
}
