// Benchlab's Tomcat template: embedded Apache Tomcat 11 with one context and one servlet
// (BenchServlet), started from the command line Benchlab renders from template.json. Owns the
// options, the connector (NIO or NIO2, maxThreads, acceptCount, maxConnections, or virtual
// threads) and a clean stop on SIGTERM.

package benchlab.tomcat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

public final class Main {
    private static final Set<String> VARIANTS = Set.of("sync", "async", "virtual");
    private static final Map<String, String> PROTOCOLS = Map.of(
            "nio", "org.apache.coyote.http11.Http11NioProtocol",
            "nio2", "org.apache.coyote.http11.Http11Nio2Protocol");

    private Main() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int port = number(options, "--port", 1, 65535);
        String variant = options.getOrDefault("--variant", "sync");
        if (!VARIANTS.contains(variant)) fail("--variant must be one of " + VARIANTS);
        String protocol = PROTOCOLS.get(options.getOrDefault("--connector", "nio"));
        if (protocol == null) fail("--connector must be nio or nio2");
        int maxThreads = number(options, "--max-threads", 1, 100_000);
        int acceptCount = number(options, "--accept-count", 1, 65_535);
        int maxConnections = number(options, "--max-connections", 1, 10_000_000);
        boolean cacheFile = bool(options, "--cache-file");
        Path payload = Path.of(required(options, "--payload"));
        Path baseDir = Path.of(required(options, "--base-dir"));
        int java = Runtime.version().feature();
        // Benchlab offers this variant only on Java 21+; say so plainly if started by hand on less.
        if (variant.equals("virtual") && java < 21) fail("variant virtual needs Java 21 or newer (this is Java " + java + ")");

        // Read once at start, so that a missing payload fails the start and not the first request.
        byte[] cached;
        try {
            cached = Files.readAllBytes(payload);
        } catch (IOException error) {
            fail("cannot read the payload " + payload + ": " + error);
            return;
        }

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = new Connector(protocol);
        connector.setPort(port);
        connector.setProperty("address", "0.0.0.0");
        connector.setProperty("maxThreads", String.valueOf(maxThreads));
        connector.setProperty("acceptCount", String.valueOf(acceptCount));
        connector.setProperty("maxConnections", String.valueOf(maxConnections));
        // The contract keeps connections alive without a request limit; Tomcat closes after 100 by default.
        connector.setProperty("maxKeepAliveRequests", "-1");
        if (variant.equals("virtual")) connector.setProperty("useVirtualThreads", "true");
        // A failed bind must end the process, not leave a Tomcat without a connector.
        connector.setThrowOnFailure(true);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);

        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "bench", new BenchServlet(variant.equals("async"), payload, cached, cacheFile)).setAsyncSupported(true);
        context.addServletMappingDecoded("/", "bench");

        try {
            tomcat.start();
        } catch (LifecycleException error) {
            fail("cannot start on port " + port + ": " + error.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (LifecycleException ignored) {
                // exiting anyway
            }
        }, "benchlab-stop"));
        System.out.printf("tomcat %s on Java %s: listening on port %d (variant %s, connector %s, %s, %s)%n",
                org.apache.catalina.util.ServerInfo.getServerNumber(), Runtime.version(), port, variant,
                options.getOrDefault("--connector", "nio"),
                variant.equals("virtual") ? "virtual threads" : "maxThreads " + maxThreads,
                cacheFile ? "payload cached in memory" : "payload read per request");
        tomcat.getServer().await();
    }

    private static Map<String, String> parse(String[] args) {
        if (args.length % 2 != 0) fail("options come in pairs: --name value");
        Map<String, String> options = new HashMap<>();
        Set<String> known = Set.of("--port", "--variant", "--connector", "--max-threads", "--accept-count",
                "--max-connections", "--cache-file", "--payload", "--base-dir");
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
        System.err.println("benchlab-tomcat: " + message);
        System.exit(2);
    }
}
