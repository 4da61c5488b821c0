// Answers made once (service/prepared-answer.ts: the token lists, their 304s, the bench's sized
// no-op) are written by the server itself, before the app: a GET whose request target is exactly a
// prepared answer's path is answered from its bytes and frozen header object, with no Hono context,
// router pass, middleware, Request or Response made for it (what that saves: docs/PERFORMANCE.md,
// "Prepared answers before the app"). What the app applies to such a request is applied here the
// same way: the client's rate limit and the CORS grant by Origin. A request the limit refuses goes
// on to the app, which answers the contract's 429 (a refusal takes nothing from the bucket, so no
// request is counted twice). Anything else (HEAD, a query string, another spelling of the path, an
// unknown chain) is the app's, answered as before.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Cors } from './cors';
import type { PreparedAnswer } from './prepared-answer';
import { type ClientLimiter, nodeHeader } from './request-bounds';

/** Which of a path's prepared answers a request gets (a list: by its If-None-Match and Accept-Encoding). */
export type PreparedRoute = (headers: IncomingHttpHeaders) => PreparedAnswer;

export interface PreparedRoutes {
  /** Writes the request's prepared answer and says true, or says false: the app answers it. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** Answers written so far (tests and the bench read it). */
  readonly served: number;
}

export function preparedRoutes(
  routeFor: (path: string) => PreparedRoute | undefined,
  cors: Cors,
  limiter: ClientLimiter | null,
): PreparedRoutes {
  let served = 0;
  return {
    get served() {
      return served;
    },
    serve(request, response) {
      const path = request.url;
      if (request.method !== 'GET' || path === undefined) return false;
      const route = routeFor(path);
      if (route === undefined) return false;
      if (limiter?.take('GET', path, nodeHeader(request.headers), request.socket.remoteAddress)) return false;
      let answer: PreparedAnswer;
      try {
        answer = route(request.headers);
      } catch {
        // Not expected (lookups of answers that exist); the app answers it, its errors included.
        return false;
      }
      response.writeHead(answer.status, cors.preparedHeaders(answer, request.headers.origin));
      response.end(answer.body ?? undefined);
      served++;
      return true;
    },
  };
}
