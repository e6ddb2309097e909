// The Vert.x template's /docs over a MongoDB-protocol database (the knob database set to mongo: the
// host's mongod or FerretDB) with Vert.x's MongoDB client, as the siege seed's Vert.x used MongoDB:
// one document of the shared random fields inserted into `docs`, then 100 stored documents,
// unsorted as the seed's select was (in the database's own order, so FerretDB reads 100 rows, not
// the whole collection), answered with the same fields as over PostgreSQL, the id as the ObjectId's
// hex. One shared client of DatabaseUrl.poolSize() connections; ObjectIds for new documents (the
// client's default is a string _id, not the contract's 24 hex digits). The read asks for what it
// needs, 100 documents in one batch: the client's findWithOptions asks the server for batches of
// 2^31 - 1 documents (it requests everything the driver can give), which FerretDB v1 takes as a slice
// to allocate per find, 16 GiB each; findBatchWithOptions sends the FindOptions' batch size instead.
// The other database endpoints are PostgreSQL's rows: they answer 503 here.

package benchlab.vertx;

import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.NewDoc;
import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.DatabaseUrl;
import benchlab.common.Endpoints.Reply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

final class MongoDatabase implements Database {
    static final String SCHEME = "mongodb://";
    static final Reply POSTGRES_ONLY = new Reply(503, "text/plain",
            "the database mongo serves /docs only: deploy with the knob database postgres for this endpoint\n".getBytes(StandardCharsets.US_ASCII), null);
    private static final int STORED_DOCS = 100;

    private final String url;
    private final MongoClient client;

    private MongoDatabase(String url, MongoClient client) {
        this.url = url;
        this.client = client;
    }

    /** The client for `url` (mongodb://HOST:PORT/NAME); connects lazily. */
    static MongoDatabase open(Vertx vertx, String url) {
        String name = URI.create(url).getPath().replaceFirst("^/", "");
        JsonObject config = new JsonObject()
                .put("connection_string", url)
                .put("db_name", name.isEmpty() ? "benchlab" : name)
                .put("maxPoolSize", DatabaseUrl.poolSize())
                .put("useObjectId", true);
        return new MongoDatabase(url, MongoClient.createShared(vertx, config, "benchlab"));
    }

    @Override
    public Future<Void> check() {
        return client.runCommand("ping", new JsonObject().put("ping", 1)).mapEmpty();
    }

    @Override
    public Future<Reply> answer(Query query) {
        if (query.kind() != DatabaseEndpoints.Kind.DOCS) return Future.succeededFuture(POSTGRES_ONLY);
        NewDoc doc = DatabaseEndpoints.randomDoc();
        JsonObject stored = new JsonObject().put("title", doc.title()).put("body", doc.body()).put("count", doc.count());
        // One batch one larger than the limit, so a server that closes a cursor only on a short batch
        // (FerretDB v1) closes it here too: no cursor is left for the client to kill.
        FindOptions first = new FindOptions().setLimit(STORED_DOCS).setBatchSize(STORED_DOCS + 1);
        return client.insert("docs", stored)
                .compose(id -> client.findBatchWithOptions("docs", new JsonObject(), first).collect(Collectors.toList()))
                .map(rows -> {
                    JsonArray docs = new JsonArray();
                    for (JsonObject row : rows) {
                        docs.add(new JsonObject().put("id", idOf(row.getValue("_id"))).put("title", row.getString("title"))
                                .put("body", row.getString("body")).put("count", row.getInteger("count")));
                    }
                    return new Reply(200, "application/json", docs.encode().getBytes(StandardCharsets.UTF_8), null);
                });
    }

    /** An ObjectId comes back as {"$oid": hex}; anything else as its text. */
    private static String idOf(Object id) {
        return id instanceof JsonObject oid && oid.containsKey("$oid") ? oid.getString("$oid") : String.valueOf(id);
    }

    @Override
    public String describe() {
        return "database " + url + ", pool " + DatabaseUrl.poolSize();
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }
}
