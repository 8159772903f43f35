package httplab.netty;

import httplab.server.DatabaseSettings;
import httplab.server.JdbcWorlds;
import httplab.server.World;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.sql.SQLException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * /db and /queries: runs the JDBC statements where the BlockingExecutor puts them: on the
 * blocking group (pool), as the ChannelPipeline javadoc does for its business logic handler
 * "(e.g. database access)" (https://netty.io/4.1/api/io/netty/channel/ChannelPipeline.html),
 * or on a virtual thread of their own (virtual); never on an event loop. HelloHandler has
 * paused the channel (RequestOrder) and passes on a Query; other messages (/blocking's) go on by.
 */
@ChannelHandler.Sharable
final class DatabaseHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseHandler.class);
    private final JdbcWorlds store;
    private final BlockingExecutor executor;

    /** store is null without a database: then every query is answered 503. */
    DatabaseHandler(JdbcWorlds store, BlockingExecutor executor) {
        this.store = store;
        this.executor = executor;
    }

    /** One /db (list false: a single object) or /queries (list true: an array) request. */
    record Query(HttpRequest request, int count, boolean list) {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (!(message instanceof Query query)) {
            ctx.fireChannelRead(message);
            return;
        }
        executor.answer(ctx, query.request(), () -> answer(query));
    }

    private FullHttpResponse answer(Query query) {
        if (store == null) {
            return HelloResponses.text(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    DatabaseSettings.NOT_CONFIGURED);
        }
        try {
            List<World> worlds = store.randomWorlds(query.count());
            return JsonResponses.of(query.list() ? worlds : worlds.get(0));
        } catch (SQLException e) {
            // HikariCP logs nothing of a connection that times out: say why the answer is 500.
            LOG.warn("{} failed: {}", query.list() ? "/queries" : "/db", e.getMessage());
            return HelloResponses.empty(HttpResponseStatus.INTERNAL_SERVER_ERROR);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
