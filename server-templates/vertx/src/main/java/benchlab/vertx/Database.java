// What the Vert.x template's database endpoints run on: the private PostgreSQL (PgDatabase) or the
// MongoDB-protocol database (MongoDatabase), chosen by the scheme of BENCHLAB_DB_URL. Both answer
// on the event loop of the request that asked, so the verticle treats them alike.

package benchlab.vertx;

import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.Endpoints.Reply;
import io.vertx.core.Future;

interface Database {
    /** One round trip before the server listens, so that a database out of reach fails the start. */
    Future<Void> check();

    Future<Reply> answer(Query query);

    /** For the start line: where the pool connects (never a password) and its size. */
    String describe();

    Future<Void> close();
}
