// Variant "async" of the Tomcat template: the shared servlet with its two waits made asynchronous.
// /sleep releases its thread through AsyncContext and answers from a timer; /file is read with an
// AsynchronousFileChannel (Payload.readAsync) and written with a WriteListener (servlet non-blocking
// output), so no container thread waits on the disk or on a slow client. The database endpoints
// stay blocking JDBC on the request thread, as in the sync servlet it extends.

package benchlab.tomcat;

import benchlab.common.DatabaseServlet;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.JdbcDatabase;
import benchlab.common.Payload;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

final class AsyncServlet extends DatabaseServlet {
    private static final long serialVersionUID = 1L;
    /** Async writes go out in pieces so that isReady() gets a say between them. */
    private static final int CHUNK = 16 * 1024;

    /** One timer thread answers every sleeping request. */
    private final transient ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sleep-timer");
        thread.setDaemon(true);
        return thread;
    });

    AsyncServlet(Payload payload, JdbcDatabase database) {
        super(payload, database);
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
        super.destroy();
    }

    @Override
    protected void sleep(HttpServletRequest request, HttpServletResponse response, Sleep sleep) {
        AsyncContext context = request.startAsync();
        // Tomcat's default async timeout is 30 s; the contract allows sleeps up to 60 s.
        context.setTimeout(sleep.ms() + 30_000L);
        timer.schedule(() -> {
            try {
                send((HttpServletResponse) context.getResponse(), sleep.reply());
            } catch (IOException | IllegalStateException gone) {
                // the client left while we slept
            } finally {
                context.complete();
            }
        }, sleep.ms(), TimeUnit.MILLISECONDS);
    }

    @Override
    protected void file(HttpServletRequest request, HttpServletResponse response) {
        AsyncContext context = request.startAsync();
        payload.readAsync().whenComplete((body, error) -> {
            if (error != null) fail(context, error);
            else writeNonBlocking(context, body);
        });
    }

    /** Writes the body through a WriteListener, a chunk at a time while the connection can take it. */
    private static void writeNonBlocking(AsyncContext context, byte[] body) {
        HttpServletResponse response = (HttpServletResponse) context.getResponse();
        response.setStatus(200);
        response.setContentType("application/octet-stream");
        response.setContentLength(body.length);
        ServletOutputStream out;
        try {
            out = response.getOutputStream();
        } catch (IOException error) {
            fail(context, error);
            return;
        }
        out.setWriteListener(new WriteListener() {
            private int offset;

            @Override
            public void onWritePossible() throws IOException {
                while (out.isReady()) {
                    if (offset >= body.length) {
                        context.complete();
                        return;
                    }
                    int length = Math.min(CHUNK, body.length - offset);
                    out.write(body, offset, length);
                    offset += length;
                }
            }

            @Override
            public void onError(Throwable error) {
                context.complete();
            }
        });
    }

    private static void fail(AsyncContext context, Throwable error) {
        System.err.println("benchlab-tomcat: /file failed: " + error);
        try {
            ((HttpServletResponse) context.getResponse()).sendError(500);
        } catch (IOException | IllegalStateException ignored) {
            // nothing more to tell the client
        }
        context.complete();
    }
}
