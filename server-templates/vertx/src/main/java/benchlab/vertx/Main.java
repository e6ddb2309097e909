// Benchlab's Vert.x template: deploys N instances of BenchVerticle on the given port, started from
// the command line Benchlab renders from template.json, with the database of BENCHLAB_DB_URL when
// there is one (PostgreSQL, or MongoDB's protocol for a mongodb:// URL; checked before the server listens) and the handlers' language (knob language:
// java, or the script --script on rhino or nashorn). Owns the worker pool size (used only by the
// "blocking" variant's executeBlocking) and a clean stop on SIGTERM.

package benchlab.vertx;

import benchlab.common.DatabaseUrl;
import benchlab.common.Options;
import benchlab.common.Payload;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse("benchlab-vertx", args, "--port", "--variant", "--instances", "--worker-pool-size", "--cache-file", "--payload", "--language", "--script");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "eventloop", "blocking");
        int instances = options.number("--instances", 1, 256);
        int workerPoolSize = options.number("--worker-pool-size", 1, 10_000);
        Payload payload = options.payload();
        String language = options.choice("--language", "java", "rhino", "nashorn");
        String script = language.equals("java") ? null : Files.readString(options.path("--script"));
        // Compiled once here too, so that a broken script or engine fails the start, and for the start line.
        String languageLine = script == null ? "handlers in Java" : "handlers in JavaScript on " + ScriptBodies.create(language, script).engine();
        // mongodb:// is the database mongo (MongoDatabase); anything else is PostgreSQL's URL or none.
        String rawUrl = System.getenv(DatabaseUrl.ENVIRONMENT_VARIABLE);
        boolean mongo = rawUrl != null && rawUrl.startsWith(MongoDatabase.SCHEME);
        DatabaseUrl databaseUrl = mongo ? null : DatabaseUrl.fromEnvironment(options);

        // One event loop per instance at least, so that N instances really are N loops in parallel.
        VertxOptions vertxOptions = new VertxOptions()
                .setEventLoopPoolSize(Math.max(instances, VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE))
                .setWorkerPoolSize(workerPoolSize);
        Vertx vertx = Vertx.vertx(vertxOptions);
        boolean blocking = variant.equals("blocking");
        Database database = mongo ? MongoDatabase.open(vertx, rawUrl)
                : databaseUrl == null ? null : PgDatabase.open(vertx, databaseUrl, vertxOptions.getEventLoopPoolSize());
        if (database != null) {
            try {
                database.check().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception error) {
                Throwable cause = error.getCause() != null ? error.getCause() : error;
                System.err.println("benchlab-vertx: cannot connect to the database " + (mongo ? rawUrl : databaseUrl.describe()) + ": " + cause);
                vertx.close();
                System.exit(1);
            }
        }
        try {
            vertx.deployVerticle(() -> new BenchVerticle(port, blocking, payload, database, language, script),
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
        System.out.printf("vert.x %s on Java %s: listening on port %d (variant %s, %d instance%s, worker pool %d, %s, %s, %s)%n",
                version(), Runtime.version(), port, variant, instances,
                instances == 1 ? "" : "s", workerPoolSize, payload.describe(), database == null ? "no database" : database.describe(), languageLine);
    }

    /** Vert.x's own version file (a shaded jar has no per-library manifest to ask). */
    private static String version() {
        try (var in = Main.class.getResourceAsStream("/META-INF/vertx/vertx-version.txt")) {
            return in == null ? "?" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException error) {
            return "?";
        }
    }
}
