// One instance of the Vert.x template's HTTP server: a verticle whose request handler runs on its
// event loop. Vert.x spreads connections over the instances that listen on the same port, so the
// "instances" knob is the number of event loops serving requests (the siege seed compared 1 and 4).
// Variant "eventloop" never blocks: /sleep is a timer, /file is sendFile (the kernel copies it).
// Variant "blocking" blocks only where the endpoint itself waits — /sleep's sleep and /file's disk
// read — and moves exactly that onto the worker pool with executeBlocking. CPU work (/fib,
// /concat) stays on the event loop in both: it computes, it does not wait. The database endpoints
// use the reactive PostgreSQL client (PgDatabase) or the MongoDB client (MongoDatabase) in both
// variants: neither blocks. With the knob
// language rhino or nashorn, /hello, /json, /fib and /concat are computed by this instance's own
// JavaScript engine (ScriptBodies), made in start() on its event loop.

package benchlab.vertx;

import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Bodies;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.Payload;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

final class BenchVerticle extends VerticleBase {
    private final int port;
    private final boolean blocking;
    private final Payload payload;
    /** The payload read at start, as a Buffer once: served when it is kept in memory. */
    private final Buffer inMemory;
    /** Null when the template runs without a database (knob database none). */
    private final Database database;
    /** "java", "rhino" or "nashorn"; `script` is the JavaScript handlers' source (null for java). */
    private final String language;
    private final String script;
    /** This instance's JavaScript handlers, or null when Java computes (Endpoints' own). */
    private Bodies bodies;

    BenchVerticle(int port, boolean blocking, Payload payload, Database database, String language, String script) {
        this.port = port;
        this.blocking = blocking;
        this.payload = payload;
        this.inMemory = Buffer.buffer(payload.atStart());
        this.database = database;
        this.language = language;
        this.script = script;
    }

    @Override
    public Future<?> start() {
        // On this instance's event loop: the engine is made, compiled and later called on this thread only.
        if (!language.equals("java")) bodies = ScriptBodies.create(language, script);
        return vertx.createHttpServer(new HttpServerOptions().setHost("0.0.0.0").setPort(port))
                .requestHandler(this::handle)
                .listen();
    }

    private void handle(HttpServerRequest request) {
        // Vert.x leaves the body out of a HEAD response itself.
        HttpServerResponse response = request.response();
        Query query = DatabaseEndpoints.query(request.path(), request::getParam);
        if (query != null) {
            database(request.method().name(), response, query);
            return;
        }
        Route route;
        try {
            route = Endpoints.route(request.method().name(), request.path(), request::getParam, bodies);
        } catch (RuntimeException error) {
            // A script's failure answers 500 instead of leaving the request open.
            fail(response, error);
            return;
        }
        if (route instanceof Reply reply) send(response, reply);
        else if (route instanceof Sleep sleep) sleep(response, sleep);
        else file(request.method() == HttpMethod.HEAD, response);
    }

    private void database(String method, HttpServerResponse response, Query query) {
        Reply refusal = DatabaseEndpoints.refusal(method, query, database != null);
        if (refusal != null) {
            send(response, refusal);
            return;
        }
        database.answer(query).onComplete(done -> {
            if (done.succeeded()) send(response, done.result());
            else fail(response, done.cause());
        });
    }

    private static void send(HttpServerResponse response, Reply reply) {
        if (reply.allow() != null) response.putHeader("Allow", reply.allow());
        send(response, reply.status(), reply.type(), Buffer.buffer(reply.body()));
    }

    /** Content-Length set here: Vert.x leaves it out of a HEAD response when end(Buffer) would add it. */
    private static void send(HttpServerResponse response, int status, String type, Buffer body) {
        response.setStatusCode(status).putHeader("Content-Type", type).putHeader("Content-Length", String.valueOf(body.length())).end(body);
    }

    private void sleep(HttpServerResponse response, Sleep sleep) {
        if (!blocking) {
            // setTimer rejects 0: answer at once.
            if (sleep.ms() == 0) send(response, sleep.reply());
            else vertx.setTimer(sleep.ms(), id -> send(response, sleep.reply()));
            return;
        }
        // ordered=false: sleeps of one event loop must not queue behind each other.
        vertx.executeBlocking(() -> {
            Thread.sleep(sleep.ms());
            return sleep.reply();
        }, false).onComplete(done -> {
            if (done.succeeded()) send(response, done.result());
            else fail(response, done.cause());
        });
    }

    private void file(boolean head, HttpServerResponse response) {
        if (payload.inMemory()) {
            send(response, 200, "application/octet-stream", inMemory);
            return;
        }
        String file = payload.file().toString();
        if (!blocking && head) {
            // sendFile leaves Content-Length out of a HEAD answer: state the file's size instead.
            vertx.fileSystem().props(file).onComplete(done -> {
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
            response.sendFile(file).onFailure(error -> fail(response, error));
            return;
        }
        vertx.executeBlocking(payload::read, false).onComplete(done -> {
            if (done.succeeded()) send(response, Endpoints.file(done.result()));
            else fail(response, done.cause());
        });
    }

    private static void fail(HttpServerResponse response, Throwable error) {
        System.err.println("benchlab-vertx: request failed: " + error);
        if (!response.headWritten()) send(response, Endpoints.INTERNAL_ERROR);
        else response.reset();
    }
}
