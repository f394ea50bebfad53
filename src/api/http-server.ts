import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * The API's HTTP server: its requests and responses are made with the Express app's own request
 * and response prototypes from the start. Express otherwise gives every request and response its
 * prototypes after Node has made them (Object.setPrototypeOf in app.handle), which turns both
 * objects into slow, dictionary-mode objects for the rest of their lives: every property Node,
 * Express and the middleware set on them afterwards allocates. Made with the right prototypes,
 * Express's own setPrototypeOf has nothing to change. On a cached dictionary answer this halved the
 * API's CPU and cut its allocation by a third (bench/README.md, "The request prototypes").
 */
export class ApiServer {
  readonly server: Server;
  private readonly requestClass = apiRequestClass();
  private readonly responseClass = apiResponseClass();
  private served = false;

  constructor() {
    // Should Node make these ES classes (they are constructor functions), a plain server: Express
    // then gives the prototypes itself, as it does on any server, correct but slower.
    this.server =
      callable(IncomingMessage) && callable(ServerResponse)
        ? createServer({
            IncomingMessage: this.requestClass as unknown as typeof IncomingMessage,
            ServerResponse: this.responseClass as unknown as typeof ServerResponse,
          })
        : createServer();
  }

  /**
   * Answers every request with `app`, its requests and responses made with the app's prototypes
   * (`handler`: something in front of the app that hands each request on to it, or to apps that
   * share its prototypes; the benchmark's variants of the API). Once per server.
   */
  serve(app: Express, handler: RequestListener = app): this {
    if (this.served) throw new Error('an ApiServer serves one app');
    this.served = true;
    this.requestClass.prototype = app.request;
    this.responseClass.prototype = app.response;
    this.server.on('request', handler);
    return this;
  }
}

interface ApiRequestClass {
  (this: IncomingMessage, socket: Socket): void;
  prototype: object;
}

interface ApiResponseClass {
  (this: ServerResponse, req: IncomingMessage, options?: object): void;
  prototype: object;
}

/** A constructor function, not an ES class (which cannot be called on an object made elsewhere). */
const callable = (constructor: unknown): boolean =>
  typeof constructor === 'function' && !/^class\b/.test(Function.prototype.toString.call(constructor));

// Node's IncomingMessage and ServerResponse are constructor functions, called on the new object as
// a subclass constructor would; each class's prototype is the app's, set by serve(). (Reflect.construct
// with a new.target of the app's prototype measured worse: 33 KB allocated per dictionary answer,
// against 27 KB with Express's own change and 19 KB this way.)
function apiRequestClass(): ApiRequestClass {
  const ApiRequest = function (this: IncomingMessage, socket: Socket) {
    (IncomingMessage as unknown as ApiRequestClass).call(this, socket);
  } as ApiRequestClass;
  ApiRequest.prototype = IncomingMessage.prototype;
  return ApiRequest;
}

function apiResponseClass(): ApiResponseClass {
  const ApiResponse = function (this: ServerResponse, req: IncomingMessage, options?: object) {
    (ServerResponse as unknown as ApiResponseClass).call(this, req, options);
  } as ApiResponseClass;
  ApiResponse.prototype = ServerResponse.prototype;
  return ApiResponse;
}
