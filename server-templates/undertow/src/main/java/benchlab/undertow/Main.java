// Benchlab's Undertow template: one Undertow server on the given port, serving either the
// non-blocking handler (NonBlockingHandler) or a deployment of the shared BlockingServlet, started
// from the command line Benchlab renders from template.json. Owns the I/O and worker thread counts
// (0: Undertow's own defaults) and a clean stop on SIGTERM.

package benchlab.undertow;

import benchlab.common.BlockingServlet;
import benchlab.common.Options;
import benchlab.common.Payload;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.util.ImmediateInstanceFactory;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse("benchlab-undertow", args, "--port", "--variant", "--io-threads", "--worker-threads", "--cache-file", "--payload");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "nonblocking", "servlet");
        int ioThreads = options.number("--io-threads", 0, 1024);
        int workerThreads = options.number("--worker-threads", 0, 100_000);
        Payload payload = options.payload();

        HttpHandler handler;
        if (variant.equals("servlet")) {
            DeploymentInfo deployment = Servlets.deployment()
                    .setClassLoader(Main.class.getClassLoader())
                    .setContextPath("")
                    .setDeploymentName("benchlab")
                    .addServlet(Servlets.servlet("bench", BlockingServlet.class,
                            new ImmediateInstanceFactory<>(new BlockingServlet(payload))).addMapping("/"));
            DeploymentManager manager = Servlets.defaultContainer().addDeployment(deployment);
            manager.deploy();
            handler = manager.start();
        } else {
            handler = new NonBlockingHandler(payload);
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
            options.fail("cannot start on port " + port + ": " + error.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "benchlab-stop"));
        System.out.printf("undertow %s on Java %s: listening on port %d (variant %s, %d io threads, %d worker threads, %s)%n",
                io.undertow.Version.getVersionString(), Runtime.version(), port, variant, ioCount, workers, payload.describe());
    }
}
