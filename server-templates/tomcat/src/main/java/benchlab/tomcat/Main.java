// Benchlab's Tomcat template: embedded Apache Tomcat 11 with one context and one servlet (the
// shared DatabaseServlet, or AsyncServlet for variant "async"), started from the command line
// Benchlab renders from template.json and the database of BENCHLAB_DB_URL. Owns the connector (NIO
// or NIO2, maxThreads, acceptCount, maxConnections, or virtual threads) and a clean stop on SIGTERM.

package benchlab.tomcat;

import benchlab.common.DatabaseServlet;
import benchlab.common.JdbcDatabase;
import benchlab.common.Options;
import benchlab.common.Payload;
import java.nio.file.Path;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

public final class Main {
    private static final Map<String, String> PROTOCOLS = Map.of(
            "nio", "org.apache.coyote.http11.Http11NioProtocol",
            "nio2", "org.apache.coyote.http11.Http11Nio2Protocol");

    private Main() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse("benchlab-tomcat", args, "--port", "--variant", "--connector", "--max-threads",
                "--accept-count", "--max-connections", "--cache-file", "--payload", "--base-dir");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "sync", "async", "virtual");
        String connectorName = options.choice("--connector", "nio", "nio2");
        int maxThreads = options.number("--max-threads", 1, 100_000);
        int acceptCount = options.number("--accept-count", 1, 65_535);
        int maxConnections = options.number("--max-connections", 1, 10_000_000);
        Path baseDir = options.path("--base-dir");
        int java = Runtime.version().feature();
        // Benchlab offers this variant only on Java 21+; say so plainly if started by hand on less.
        if (variant.equals("virtual") && java < 21) options.fail("variant virtual needs Java 21 or newer (this is Java " + java + ")");
        Payload payload = options.payload();
        JdbcDatabase database = JdbcDatabase.fromEnvironment(options);

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = new Connector(PROTOCOLS.get(connectorName));
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
        DatabaseServlet servlet = variant.equals("async") ? new AsyncServlet(payload, database) : new DatabaseServlet(payload, database);
        Tomcat.addServlet(context, "bench", servlet).setAsyncSupported(true);
        context.addServletMappingDecoded("/", "bench");

        try {
            tomcat.start();
        } catch (LifecycleException error) {
            options.fail("cannot start on port " + port + ": " + error.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                tomcat.stop();
                tomcat.destroy();
                if (database != null) database.close();
            } catch (LifecycleException ignored) {
                // exiting anyway
            }
        }, "benchlab-stop"));
        System.out.printf("tomcat %s on Java %s: listening on port %d (variant %s, connector %s, %s, %s, %s)%n",
                org.apache.catalina.util.ServerInfo.getServerNumber(), Runtime.version(), port, variant, connectorName,
                variant.equals("virtual") ? "virtual threads" : "maxThreads " + maxThreads, payload.describe(),
                database == null ? "no database" : database.describe());
        tomcat.getServer().await();
    }
}
