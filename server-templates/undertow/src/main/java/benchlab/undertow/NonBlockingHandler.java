// Variant "nonblocking" of the Undertow template: one HttpHandler on Undertow's own API, run on the
// I/O threads and never dispatched to the worker pool (the wrk seed's "undertow nonblocking").
// /file goes out with Sender.transferFrom (the kernel copies the file to the socket without an
// I/O thread waiting), /sleep parks the exchange on an XNIO timer of its I/O thread. /fib and
// /concat compute in place: they use CPU, they do not wait.

package benchlab.undertow;

import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.Payload;
import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

final class NonBlockingHandler implements HttpHandler {
    private final Payload payload;

    NonBlockingHandler(Payload payload) {
        this.payload = payload;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        // Undertow drops the body of a HEAD response itself.
        Route route = Endpoints.route(exchange.getRequestMethod().toString(), exchange.getRequestPath(), name -> query(exchange, name));
        if (route instanceof Reply reply) send(exchange, reply);
        else if (route instanceof Sleep sleep) sleep(exchange, sleep);
        else file(exchange);
    }

    private static String query(HttpServerExchange exchange, String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null ? null : values.peekFirst();
    }

    private static void send(HttpServerExchange exchange, Reply reply) {
        if (reply.allow() != null) exchange.getResponseHeaders().put(Headers.ALLOW, reply.allow());
        exchange.setStatusCode(reply.status());
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, reply.type());
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, reply.body().length);
        exchange.getResponseSender().send(ByteBuffer.wrap(reply.body()));
    }

    private static void sleep(HttpServerExchange exchange, Sleep sleep) {
        // dispatch() keeps the exchange open after this handler returns; the timer finishes it.
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> exchange.getIoThread().executeAfter(
                () -> send(exchange, sleep.reply()), sleep.ms(), TimeUnit.MILLISECONDS));
    }

    private void file(HttpServerExchange exchange) {
        if (payload.inMemory()) {
            send(exchange, Endpoints.file(payload.atStart()));
            return;
        }
        FileChannel channel;
        long size;
        try {
            channel = FileChannel.open(payload.file(), StandardOpenOption.READ);
            size = channel.size();
        } catch (IOException error) {
            System.err.println("benchlab-undertow: /file failed: " + error);
            send(exchange, Endpoints.INTERNAL_ERROR);
            return;
        }
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, size);
        exchange.getResponseSender().transferFrom(channel, new IoCallback() {
            @Override
            public void onComplete(HttpServerExchange done, Sender sender) {
                closeQuietly(channel);
                IoCallback.END_EXCHANGE.onComplete(done, sender);
            }

            @Override
            public void onException(HttpServerExchange failed, Sender sender, IOException error) {
                closeQuietly(channel);
                IoCallback.END_EXCHANGE.onException(failed, sender, error);
            }
        });
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
