import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * Temporal's Java time-skipping test server, bound to 127.0.0.1 only (the stock main binds every
 * interface). Same command line as io.temporal.testserver.TestServer: {@code <port>
 * [--enable-time-skipping]}; without the flag time skipping starts locked, which is what the
 * TypeScript SDK's TestWorkflowEnvironment.createTimeSkipping expects.
 */
public final class LoopbackTestServer {
  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("Usage: LoopbackTestServer <port> [--enable-time-skipping]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    boolean lockTimeSkipping = !Arrays.asList(args).contains("--enable-time-skipping");
    TestServicesStarter services = new TestServicesStarter(lockTimeSkipping, 0);
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port), InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow();
      services.close();
    }));
    server.awaitTermination();
  }
}
