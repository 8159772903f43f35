package httplab.server;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One row of the database's world table, as /db answers it ({"id":N,"randomNumber":M})
 * and /queries answers a list of them; the table, the statement every server runs and the
 * random id each request picks (TechEmpower's db and queries tests).
 */
public record World(int id, int randomNumber) {
    /** Rows in the table: ids 1..ROWS, seeded by database/seed.sql. */
    public static final int ROWS = 10_000;
    /** The one statement per row, with a JDBC placeholder. */
    public static final String SELECT_JDBC = "SELECT id, randomnumber FROM world WHERE id = ?";
    /** The same statement with PostgreSQL's numbered placeholder (R2DBC, Vert.x). */
    public static final String SELECT_NUMBERED = "SELECT id, randomnumber FROM world WHERE id = $1";

    /** A random id in 1..ROWS, each request its own. */
    public static int randomId() {
        return ThreadLocalRandom.current().nextInt(1, ROWS + 1);
    }
}
