// Benchlab's Vert.x template: deploys N instances of BenchVerticle on the given port, started from
// the command line Benchlab renders from template.json. Owns the options, the worker pool size
// (used only by the "blocking" variant's executeBlocking) and a clean stop on SIGTERM.

package benchlab.vertx;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int port = number(options, "--port", 1, 65535);
        String variant = options.getOrDefault("--variant", "eventloop");
        if (!variant.equals("eventloop") && !variant.equals("blocking")) fail("--variant must be eventloop or blocking");
        int instances = number(options, "--instances", 1, 256);
        int workerPoolSize = number(options, "--worker-pool-size", 1, 10_000);
        boolean cacheFile = bool(options, "--cache-file");
        Path payload = Path.of(required(options, "--payload"));

        // Read once at start, so that a missing payload fails the start and not the first request.
        byte[] cached;
        try {
            cached = Files.readAllBytes(payload);
        } catch (IOException error) {
            fail("cannot read the payload " + payload + ": " + error);
            return;
        }

        // One event loop per instance at least, so that N instances really are N loops in parallel.
        VertxOptions vertxOptions = new VertxOptions()
                .setEventLoopPoolSize(Math.max(instances, VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE))
                .setWorkerPoolSize(workerPoolSize);
        Vertx vertx = Vertx.vertx(vertxOptions);
        boolean blocking = variant.equals("blocking");
        try {
            vertx.deployVerticle(() -> new BenchVerticle(port, blocking, payload, cached, cacheFile),
                    new DeploymentOptions().setInstances(instances))
                    .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (Exception error) {
            Throwable cause = error.getCause() != null ? error.getCause() : error;
            System.err.println("benchlab-vertx: cannot start on port " + port + ": " + cause);
            vertx.close();
            System.exit(1);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // exiting anyway
            }
        }, "benchlab-stop"));
        System.out.printf("vert.x %s on Java %s: listening on port %d (variant %s, %d instance%s, worker pool %d, %s)%n",
                version(), Runtime.version(), port, variant, instances,
                instances == 1 ? "" : "s", workerPoolSize, cacheFile ? "payload cached in memory" : "payload read per request");
    }

    /** Vert.x's own version file (a shaded jar has no per-library manifest to ask). */
    private static String version() {
        try (var in = Main.class.getResourceAsStream("/META-INF/vertx/vertx-version.txt")) {
            return in == null ? "?" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        } catch (IOException error) {
            return "?";
        }
    }

    private static Map<String, String> parse(String[] args) {
        if (args.length % 2 != 0) fail("options come in pairs: --name value");
        Map<String, String> options = new HashMap<>();
        Set<String> known = Set.of("--port", "--variant", "--instances", "--worker-pool-size", "--cache-file", "--payload");
        for (int i = 0; i < args.length; i += 2) {
            if (!known.contains(args[i])) fail("unknown option " + args[i]);
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) fail(name + " is required");
        return value;
    }

    private static int number(Map<String, String> options, String name, int min, int max) {
        String text = required(options, name);
        if (!text.matches("\\d{1,9}") || Integer.parseInt(text) < min || Integer.parseInt(text) > max) {
            fail(name + " must be a whole number from " + min + " to " + max + " (got " + text + ")");
        }
        return Integer.parseInt(text);
    }

    private static boolean bool(Map<String, String> options, String name) {
        String text = options.getOrDefault(name, "false");
        if (!text.equals("true") && !text.equals("false")) fail(name + " must be true or false (got " + text + ")");
        return text.equals("true");
    }

    static void fail(String message) {
        System.err.println("benchlab-vertx: " + message);
        System.exit(2);
    }
}
