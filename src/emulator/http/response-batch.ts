/**
 * Ends the answers of one turn of the event loop together, after every socket that had a request in
 * that turn has been read. Ending each answer inside its own socket's read callback interleaves a send
 * (with the wake-up of the peer) between every two requests; ending them back to back at the turn's
 * end (a setImmediate, the check phase right after the poll phase that read them) measured about 25%
 * less CPU per request on the signed placement path with 16 keep-alive connections (issue 12), the
 * bench's load. The bytes are the same; an answer leaves microseconds later, in the order the requests
 * were handled, so pipelined answers on one connection keep their order.
 */
import type { ServerResponse } from 'node:http';

export class ResponseBatch {
  private readonly pending: { readonly res: ServerResponse; readonly body: string }[] = [];

  /** Ends `res` with `body` (its head already written) at the end of this turn. */
  end(res: ServerResponse, body: string): void {
    if (this.pending.push({ res, body }) === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    // A copy first: ending an answer may run code (a socket error handler) that queues another.
    const due = this.pending.splice(0);
    for (const { res, body } of due) if (!res.destroyed) res.end(body);
  };
}
