// Benchlab's endpoint contract (server-templates/CONTRACT.md) for the JVM templates, once: which
// request gets which answer, the query parameters with their defaults and limits, fib and concat.
// Framework-free, so every template and variant computes exactly the same answers; a template only
// writes a Reply its own way and decides how to wait for /sleep and how to send /file.

package benchlab.common;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

public final class Endpoints {
    private static final int FIB_DEFAULT = 30, FIB_MAX = 45;
    private static final int CONCAT_DEFAULT = 10_000, CONCAT_MAX = 1_000_000;
    private static final int SLEEP_DEFAULT = 500, SLEEP_MAX = 60_000;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    /** What a request asks of the server: an answer known at once, a sleep, or the payload file. */
    public sealed interface Route permits Reply, Sleep, SendFile {}

    /**
     * A whole answer: status, Content-Type (exactly this, no charset) and body, sent with its
     * Content-Length. `allow` is the Allow header a 405 carries, else null.
     */
    public record Reply(int status, String type, byte[] body, String allow) implements Route {}

    /** GET /sleep with a valid `ms`: answer reply() after ms milliseconds, blocking or on a timer. */
    public record Sleep(int ms) implements Route {
        public Reply reply() {
            return text(200, "slept " + ms + " ms\n");
        }
    }

    /** GET /file: the payload, read and sent the template's own way (see Payload). */
    public record SendFile() implements Route {}

    private static final Reply HELLO = text(200, "hello world\n");
    private static final Reply HEALTH = text(200, "ok\n");
    private static final Reply JSON = new Reply(200, "application/json", ascii("{\"message\":\"Hello, World!\"}"), null);
    private static final Reply NOT_FOUND = text(404, "not found\n");
    private static final Reply METHOD_NOT_ALLOWED = new Reply(405, "text/plain", ascii("method not allowed\n"), "GET, HEAD");
    private static final SendFile SEND_FILE = new SendFile();
    /** What a template answers when it cannot read or send the payload. */
    public static final Reply INTERNAL_ERROR = text(500, "internal error\n");

    private Endpoints() {}

    /**
     * The route of one request. `query` gives a query parameter's first value, or null. /fib and
     * /concat are computed here, on the caller's thread: they use CPU, they do not wait.
     */
    public static Route route(String method, String path, Function<String, String> query) {
        return route(method, path, query, null);
    }

    /**
     * The bodies of /hello, /json, /fib and /concat computed by `bodies` instead (another language's
     * handlers), each parameter checked here first. Null: Java's own.
     */
    public static Route route(String method, String path, Function<String, String> query, Bodies bodies) {
        // The servers drop the body of a HEAD answer themselves.
        if (!method.equals("GET") && !method.equals("HEAD")) return METHOD_NOT_ALLOWED;
        return switch (path) {
            case "/hello" -> bodies == null ? HELLO : text(200, bodies.hello());
            case "/health" -> HEALTH;
            case "/json" -> bodies == null ? JSON : new Reply(200, "application/json", ascii(bodies.json()), null);
            case "/file" -> SEND_FILE;
            case "/fib" -> {
                int n = intParam(query.apply("n"), FIB_DEFAULT, FIB_MAX);
                yield n < 0 ? badParam("n", FIB_MAX) : text(200, bodies == null ? fib(n) + "\n" : bodies.fib(n));
            }
            case "/concat" -> {
                int n = intParam(query.apply("n"), CONCAT_DEFAULT, CONCAT_MAX);
                yield n < 0 ? badParam("n", CONCAT_MAX) : text(200, bodies == null ? concat(n) : bodies.concat(n));
            }
            case "/sleep" -> {
                int ms = intParam(query.apply("ms"), SLEEP_DEFAULT, SLEEP_MAX);
                yield ms < 0 ? badParam("ms", SLEEP_MAX) : new Sleep(ms);
            }
            default -> NOT_FOUND;
        };
    }

    /**
     * The compute endpoints' bodies from elsewhere (the Vert.x template's JavaScript handlers), with
     * the parameters already checked. Called on the request's thread; need not be thread-safe when
     * each thread has its own.
     */
    public interface Bodies {
        String hello();

        String json();

        /** fib(n) in decimal and a newline. */
        String fib(int n);

        /** n random letters a–z. */
        String concat(int n);
    }

    /** The answer to /file: the payload's bytes. */
    public static Reply file(byte[] payload) {
        return new Reply(200, "application/octet-stream", payload, null);
    }

    /** A whole-number query parameter within [0, max]; its default when absent; -1 when invalid. */
    private static int intParam(String text, int fallback, int max) {
        if (text == null) return fallback;
        if (!text.matches("\\d{1,10}")) return -1;
        long value = Long.parseLong(text);
        return value <= max ? (int) value : -1;
    }

    private static Reply badParam(String name, int max) {
        return text(400, name + " must be a whole number from 0 to " + max + "\n");
    }

    /** Recursive on purpose: the contract's /fib is a CPU-bound load, not an algorithm. */
    private static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** n random letters appended one at a time (a builder: String += would be quadratic in n). */
    private static String concat(int n) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder builder = new StringBuilder(n);
        for (int i = 0; i < n; i++) builder.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        return builder.toString();
    }

    private static Reply text(int status, String body) {
        return new Reply(status, "text/plain", ascii(body), null);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
