// The database endpoints' queries over JDBC (Spring's JdbcTemplate on Spring Boot's HikariCP pool),
// for the servlet variants: blocking calls, made on a request thread (sync) or on the bounded
// blocking pool (async).

package benchlab.springboot;

import benchlab.springboot.Rows.Doc;
import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.Fortune;
import benchlab.springboot.Rows.NewDoc;
import benchlab.springboot.Rows.World;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

@Repository
@Profile("database & !webflux")
class JdbcWorlds {
    private static final RowMapper<World> WORLD = (row, index) -> new World(row.getInt(1), row.getInt(2));
    private static final RowMapper<Fortune> FORTUNE = (row, index) -> new Fortune(row.getInt(1), row.getString(2));
    private static final RowMapper<Doc> DOC = (row, index) -> new Doc(row.getInt(1), row.getString(2), row.getString(3), row.getInt(4));

    private final JdbcTemplate jdbc;

    JdbcWorlds(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    World world() {
        return jdbc.queryForObject("SELECT id, randomnumber FROM world WHERE id = ?", WORLD, Rows.randomNumber());
    }

    /** n rows, one query each (TechEmpower's multiple queries). */
    List<World> worlds(int n) {
        List<World> worlds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) worlds.add(world());
        return worlds;
    }

    /** n rows read one by one, then written back with new random numbers in one batch, in id order so concurrent batches cannot deadlock. */
    List<World> update(int n) {
        List<World> updated = new ArrayList<>(n);
        for (World world : worlds(n)) updated.add(new World(world.id(), Rows.randomNumber()));
        List<Object[]> rows = updated.stream().sorted(Comparator.comparingInt(World::id))
                .map(world -> new Object[] {world.randomNumber(), world.id()}).toList();
        jdbc.batchUpdate("UPDATE world SET randomnumber = ? WHERE id = ?", rows);
        return updated;
    }

    List<Fortune> fortunes() {
        return jdbc.query("SELECT id, message FROM fortune", FORTUNE);
    }

    /** Stores one random document, then reads 100 stored ones, unsorted (the siege seed's select). */
    List<Doc> addDoc() {
        NewDoc doc = NewDoc.random();
        jdbc.update("INSERT INTO docs (title, body, count) VALUES (?, ?, ?)", doc.title(), doc.body(), doc.count());
        return jdbc.query(DatabaseEndpoints.SELECT_STORED_DOCS, DOC);
    }
}
