// Variant "async" of the Jetty template: one Jetty 12 core handler, no servlet layer, that never
// blocks the thread Jetty calls it on (a NonBlocking handler: Jetty may run it on the selector's
// own thread). Every answer is written with Response.write and the request's Callback. /sleep is a
// task on the server's scheduler; /file is read with an AsynchronousFileChannel (Payload.readAsync);
// the database endpoints, JDBC and so blocking by nature, run on a pool of their own as large as the
// connection pool, so they wait there and not on Jetty's threads. CPU work (/fib, /concat) is done
// in place: it computes, it does not wait.

package benchlab.jetty;

import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.JdbcDatabase;
import benchlab.common.Payload;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.Scheduler;

final class AsyncHandler extends Handler.Abstract.NonBlocking {
    private final Payload payload;
    private final Scheduler scheduler;
    /** Null when the template runs without a database. */
    private final JdbcDatabase database;
    /** Where the blocking JDBC statements wait; null without a database. */
    private final ExecutorService databaseThreads;

    AsyncHandler(Payload payload, Scheduler scheduler, JdbcDatabase database, ExecutorService databaseThreads) {
        this.payload = payload;
        this.scheduler = scheduler;
        this.database = database;
        this.databaseThreads = databaseThreads;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        Fields parameters = Request.extractQueryParameters(request);
        Query query = DatabaseEndpoints.query(path, parameters::getValue);
        if (query != null) {
            database(request.getMethod(), query, response, callback);
            return true;
        }
        Route route = Endpoints.route(request.getMethod(), path, parameters::getValue);
        if (route instanceof Reply reply) send(response, reply, callback);
        else if (route instanceof Sleep sleep) scheduler.schedule(() -> send(response, sleep.reply(), callback), sleep.ms(), TimeUnit.MILLISECONDS);
        else payload.readAsync().whenComplete((body, error) -> {
            if (error != null) fail(response, callback, error);
            else send(response, Endpoints.file(body), callback);
        });
        return true;
    }

    private void database(String method, Query query, Response response, Callback callback) {
        Reply refusal = DatabaseEndpoints.refusal(method, query, database != null);
        if (refusal != null) {
            send(response, refusal, callback);
            return;
        }
        databaseThreads.execute(() -> {
            Reply reply;
            try {
                reply = database.answer(query);
            } catch (Exception error) {
                fail(response, callback, error);
                return;
            }
            send(response, reply, callback);
        });
    }

    /** The whole body in one write with its Content-Length; Jetty leaves the body out of a HEAD answer. */
    private static void send(Response response, Reply reply, Callback callback) {
        response.setStatus(reply.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.type());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length);
        if (reply.allow() != null) response.getHeaders().put(HttpHeader.ALLOW, reply.allow());
        response.write(true, ByteBuffer.wrap(reply.body()), callback);
    }

    private static void fail(Response response, Callback callback, Throwable error) {
        System.err.println("benchlab-jetty: request failed: " + error);
        if (response.isCommitted()) callback.failed(error);
        else send(response, Endpoints.INTERNAL_ERROR, callback);
    }
}
