package dev.sluice.ctld.rpc;

import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.SignedRequest;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.protobuf.ProtobufEncoder;
import io.netty.handler.codec.protobuf.ProtobufVarint32LengthFieldPrepender;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command socket: length-delimited {@code SignedRequest} frames over plain TCP, served
 * with netty; each must carry a credential ({@link CommandGate}). Each request runs on a
 * virtual thread (it may wait for a journal sync) and its response is written back in order of
 * completion. A malformed or oversized frame closes that connection only.
 */
public final class FrameServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FrameServer.class);
    private static final QuietLog quiet = QuietLog.of(FrameServer.class);

    private final CommandGate gate;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private Channel channel;

    public FrameServer(CommandGate gate) {
        this.gate = gate;
    }

    public InetSocketAddress start(InetSocketAddress bind) throws InterruptedException {
        channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new BoundedVarintFrameDecoder())
                                .addLast(new ProtobufVarint32LengthFieldPrepender())
                                .addLast(new ProtobufEncoder())
                                .addLast(new RequestHandler());
                    }
                })
                .bind(bind)
                .sync()
                .channel();
        return (InetSocketAddress) channel.localAddress();
    }

    private final class RequestHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            String peer = QuietLog.host(ctx.channel().remoteAddress());
            SignedRequest request;
            try {
                request = SignedRequest.parseFrom(new ByteBufInputStream(frame));
            } catch (IOException e) {
                quiet.warn(peer, "malformed request", e.getMessage());
                ctx.close();
                return;
            }
            workers.execute(() -> {
                try {
                    ctx.writeAndFlush(gate.fromNetwork(request, peer));
                } catch (IOException e) {
                    quiet.warn(peer, "malformed request", e.getMessage());
                    ctx.close();
                } catch (RuntimeException e) {
                    // A handler bug must cost this connection only, never the daemon.
                    log.error("request from {} failed", peer, e);
                    ctx.close();
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            quiet.warn(QuietLog.host(ctx.channel().remoteAddress()), "closed command connection", cause.getMessage());
            ctx.close();
        }
    }

    /** Varint length prefix, refusing frames over {@link Frames#MAX_FRAME_BYTES} up front. */
    static final class BoundedVarintFrameDecoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            in.markReaderIndex();
            int length = 0;
            int shift = 0;
            while (true) {
                if (!in.isReadable()) {
                    in.resetReaderIndex();
                    return;
                }
                byte b = in.readByte();
                length |= (b & 0x7f) << shift;
                if (b >= 0) {
                    break;
                }
                shift += 7;
                if (shift > 28) {
                    throw refuse(in, "malformed length prefix");
                }
            }
            if (length < 0 || length > Frames.MAX_FRAME_BYTES) {
                throw refuse(in, "frame of " + length + " bytes exceeds the limit");
            }
            if (in.readableBytes() < length) {
                in.resetReaderIndex();
                return;
            }
            out.add(in.readRetainedSlice(length));
        }

        /**
         * Drops what is left: the connection closes, and the decoder, which runs once more on
         * the way out, must not find the same bad prefix again (one refusal, not two).
         */
        private static CorruptedFrameException refuse(ByteBuf in, String why) {
            in.skipBytes(in.readableBytes());
            return new CorruptedFrameException(why);
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownNow();
    }
}
