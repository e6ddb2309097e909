// The shared blocking servlet with the database endpoints: for the servlet templates that serve
// them (Tomcat, Jetty's blocking variant). A database request runs its JDBC statements on the
// request's thread, as a blocking servlet does; without a database (knob off) it answers 503, and
// everything else is BlockingServlet's.

package benchlab.common;

import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.Endpoints.Reply;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

public class DatabaseServlet extends BlockingServlet {
    private static final long serialVersionUID = 1L;

    /** Null when the template runs without a database. */
    private final transient JdbcDatabase database;

    public DatabaseServlet(Payload payload, JdbcDatabase database) {
        super(payload);
        this.database = database;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Query query = DatabaseEndpoints.query(request.getRequestURI(), request::getParameter);
        if (query == null) {
            super.service(request, response);
            return;
        }
        Reply refusal = DatabaseEndpoints.refusal(request.getMethod(), query, database != null);
        send(response, refusal != null ? refusal : answer(query));
    }

    private Reply answer(Query query) {
        try {
            return database.answer(query);
        } catch (SQLException error) {
            System.err.println("database request failed: " + error);
            return Endpoints.INTERNAL_ERROR;
        }
    }
}
