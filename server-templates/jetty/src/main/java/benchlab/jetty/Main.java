// Benchlab's Jetty template: embedded Jetty 12 serving the contract either through the shared
// blocking servlet (variant "blocking", a Jakarta EE 11 servlet context) or through one core
// handler that never blocks (variant "async", AsyncHandler), started from the command line Benchlab
// renders from template.json and the database of BENCHLAB_DB_URL. Owns the connector (acceptors,
// selectors), the thread pool and a clean stop on SIGTERM.

package benchlab.jetty;

import benchlab.common.DatabaseServlet;
import benchlab.common.DatabaseUrl;
import benchlab.common.JdbcDatabase;
import benchlab.common.Options;
import benchlab.common.Payload;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse("benchlab-jetty", args, "--port", "--variant", "--max-threads", "--acceptors", "--selectors",
                "--cache-file", "--payload");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "blocking", "async");
        int maxThreads = options.number("--max-threads", 1, 100_000);
        int acceptors = options.number("--acceptors", 0, 64);
        // 0 leaves the number of selectors to Jetty (-1: half the cores, 1 to 4).
        int selectors = options.number("--selectors", 0, 1024);
        Payload payload = options.payload();
        JdbcDatabase database = JdbcDatabase.fromEnvironment(options);

        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("jetty");
        // No threads kept in reserve: maxThreads are the threads that run requests, nothing else.
        threads.setReservedThreads(0);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        // No Server header, as the other templates: the answers' bytes compare across servers.
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, acceptors, selectors == 0 ? -1 : selectors, new HttpConnectionFactory(http));
        connector.setHost("0.0.0.0");
        connector.setPort(port);
        server.addConnector(connector);
        // Acceptors and selectors each hold a pool thread for good: the pool gets them on top of
        // maxThreads, so that maxThreads (1 in Benchlab's conformance suite) is what requests get.
        int held = connector.getAcceptors() + connector.getSelectorManager().getSelectorCount();
        threads.setMaxThreads(maxThreads + held);
        threads.setMinThreads(Math.min(8, maxThreads) + held);

        ExecutorService databaseThreads = null;
        if (variant.equals("async")) {
            if (database != null) databaseThreads = Executors.newFixedThreadPool(DatabaseUrl.poolSize(), runnable -> new Thread(runnable, "jdbc"));
            server.setHandler(new AsyncHandler(payload, server.getScheduler(), database, databaseThreads));
        } else {
            ServletContextHandler context = new ServletContextHandler();
            context.setContextPath("/");
            // The contract's text/plain has no charset: Jetty's servlet layer would add the one it
            // infers for the type (";charset=iso-8859-1") unless it infers none.
            context.getMimeTypes().addInferred("text/plain", null);
            context.addServlet(new ServletHolder("bench", new DatabaseServlet(payload, database)), "/");
            server.setHandler(context);
        }
        server.setStopTimeout(5_000);
        try {
            server.start();
        } catch (Exception error) {
            options.fail("cannot start on port " + port + ": " + error.getMessage());
        }
        ExecutorService startedDatabaseThreads = databaseThreads;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // Jetty first (requests in progress end), then the database's threads and pool.
            try {
                server.stop();
            } catch (Exception ignored) {
                // exiting anyway
            }
            if (startedDatabaseThreads != null) startedDatabaseThreads.shutdownNow();
            if (database != null) database.close();
        }, "benchlab-stop"));
        System.out.printf("jetty %s on Java %s: listening on port %d (variant %s, maxThreads %d, acceptors %d, selectors %d, %s, %s)%n",
                Jetty.VERSION, Runtime.version(), port, variant, maxThreads, connector.getAcceptors(),
                connector.getSelectorManager().getSelectorCount(), payload.describe(),
                database == null ? "no database" : database.describe());
        server.join();
    }
}
