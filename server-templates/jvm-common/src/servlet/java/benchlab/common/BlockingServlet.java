// The endpoint contract as a plain blocking servlet, for the templates that run servlets (Tomcat's
// "sync" and "virtual" variants, Undertow's "servlet"): /file is a blocking read and write, /sleep
// holds its thread for the whole sleep. A template that waits otherwise overrides sleep and file
// (Tomcat's async servlet). Its own source root (src/servlet/java), so that templates without a
// servlet container (Vert.x) compile without the servlet API.

package benchlab.common;

import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

public class BlockingServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    protected final Payload payload;

    public BlockingServlet(Payload payload) {
        this.payload = payload;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Route route = Endpoints.route(request.getMethod(), request.getRequestURI(), request::getParameter);
        if (route instanceof Reply reply) send(response, reply);
        else if (route instanceof Sleep sleep) sleep(request, response, sleep);
        else file(request, response);
    }

    /** Holds the request's thread for the whole sleep. */
    protected void sleep(HttpServletRequest request, HttpServletResponse response, Sleep sleep) throws IOException {
        try {
            Thread.sleep(sleep.ms());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            response.sendError(503);
            return;
        }
        send(response, sleep.reply());
    }

    /** A blocking read (unless the payload is in memory) and a blocking write. */
    protected void file(HttpServletRequest request, HttpServletResponse response) throws IOException {
        send(response, Endpoints.file(payload.read()));
    }

    /** A whole body with its length; the output stream, not the writer, so no charset is added to the type. */
    protected static void send(HttpServletResponse response, Reply reply) throws IOException {
        if (reply.allow() != null) response.setHeader("Allow", reply.allow());
        response.setStatus(reply.status());
        response.setContentType(reply.type());
        response.setContentLength(reply.body().length);
        response.getOutputStream().write(reply.body());
    }
}
