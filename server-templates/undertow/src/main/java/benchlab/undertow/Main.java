// Benchlab's Undertow template: one Undertow server on the given port, serving either the
// non-blocking handler (NonBlockingHandler) or a servlet deployment (BlockingServlet), started from
// the command line Benchlab renders from template.json. Owns the options, the I/O and worker
// thread counts (0: Undertow's own defaults) and a clean stop on SIGTERM.

package benchlab.undertow;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int port = number(options, "--port", 1, 65535);
        String variant = options.getOrDefault("--variant", "nonblocking");
        if (!variant.equals("nonblocking") && !variant.equals("servlet")) fail("--variant must be nonblocking or servlet");
        int ioThreads = number(options, "--io-threads", 0, 1024);
        int workerThreads = number(options, "--worker-threads", 0, 100_000);
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

        HttpHandler handler;
        if (variant.equals("servlet")) {
            DeploymentInfo deployment = Servlets.deployment()
                    .setClassLoader(Main.class.getClassLoader())
                    .setContextPath("")
                    .setDeploymentName("benchlab")
                    .addServlet(Servlets.servlet("bench", BlockingServlet.class,
                            new ImmediateInstanceFactory<>(new BlockingServlet(payload, cached, cacheFile))).addMapping("/"));
            DeploymentManager manager = Servlets.defaultContainer().addDeployment(deployment);
            manager.deploy();
            handler = manager.start();
        } else {
            handler = new NonBlockingHandler(payload, cached, cacheFile);
        }

        // Undertow's defaults: max(2, cores) I/O threads, 8 workers per I/O thread.
        int ioCount = ioThreads > 0 ? ioThreads : Math.max(2, Runtime.getRuntime().availableProcessors());
        int workers = workerThreads > 0 ? workerThreads : ioCount * 8;
        Undertow server = Undertow.builder()
                .addHttpListener(port, "0.0.0.0")
                .setIoThreads(ioCount)
                .setWorkerThreads(workers)
                .setHandler(handler)
                .build();
        try {
            server.start();
        } catch (RuntimeException error) {
            fail("cannot start on port " + port + ": " + error.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "benchlab-stop"));
        System.out.printf("undertow %s on Java %s: listening on port %d (variant %s, %d io threads, %d worker threads, %s)%n",
                io.undertow.Version.getVersionString(), Runtime.version(), port, variant, ioCount, workers,
                cacheFile ? "payload cached in memory" : "payload read per request");
    }

    private static Map<String, String> parse(String[] args) {
        if (args.length % 2 != 0) fail("options come in pairs: --name value");
        Map<String, String> options = new HashMap<>();
        Set<String> known = Set.of("--port", "--variant", "--io-threads", "--worker-threads", "--cache-file", "--payload");
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
        System.err.println("benchlab-undertow: " + message);
        System.exit(2);
    }
}
