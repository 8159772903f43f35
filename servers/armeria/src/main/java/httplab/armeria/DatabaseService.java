package httplab.armeria;

import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.JdbcWorlds;
import httplab.server.QueryCount;
import httplab.server.World;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET /db (one row, an object) and /queries?n=N (N rows, an array): the JDBC statements run
 * on the server's blocking task executor, the pool Armeria's threading model gives blocking
 * operations such as "DB calls", never on an event loop
 * (https://armeria.dev/docs/advanced/threading-model); Armeria has no database client of its
 * own. The rows are serialized as /json's are, by HttpResponse.ofJson.
 */
final class DatabaseService implements HttpService {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseService.class);
    private static final ResponseHeaders HEADERS = ResponseHeaders.builder(HttpStatus.OK)
            .contentType(MediaType.JSON)
            .set(HttpHeaderNames.SERVER, HelloResponses.SERVER_NAME)
            .build();
    private static final AggregatedHttpResponse NOT_CONFIGURED = AggregatedHttpResponse.of(
            ResponseHeaders.builder(HttpStatus.SERVICE_UNAVAILABLE)
                    .set(HttpHeaderNames.CONTENT_TYPE, Hello.CONTENT_TYPE)
                    .set(HttpHeaderNames.SERVER, HelloResponses.SERVER_NAME)
                    .build(),
            HttpData.wrap(DatabaseSettings.NOT_CONFIGURED.getBytes(StandardCharsets.UTF_8)));

    private final JdbcWorlds store;
    private final boolean list;

    /** store is null without a database (503); list: /queries' array rather than /db's object. */
    DatabaseService(JdbcWorlds store, boolean list) {
        this.store = store;
        this.list = list;
    }

    @Override
    public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) {
        if (store == null) {
            return NOT_CONFIGURED.toHttpResponse();
        }
        int count = list ? QueryCount.parse(ctx.queryParam(QueryCount.PARAMETER)) : 1;
        return HttpResponse.of(CompletableFuture.supplyAsync(() -> query(count),
                ctx.blockingTaskExecutor()));
    }

    private HttpResponse query(int count) {
        try {
            List<World> worlds = store.randomWorlds(count);
            return HttpResponse.ofJson(HEADERS, list ? worlds : worlds.get(0));
        } catch (SQLException e) {
            // HikariCP logs nothing of a connection that times out: say why the answer is 500.
            LOG.warn("{} failed: {}", list ? Hello.QUERIES_PATH : Hello.DB_PATH, e.getMessage());
            return HelloResponses.empty(HttpStatus.INTERNAL_SERVER_ERROR).toHttpResponse();
        }
    }
}
