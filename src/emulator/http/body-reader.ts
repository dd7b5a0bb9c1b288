/**
 * Reads a request body up to a limit. A declared or actual size above the limit is refused (413)
 * without buffering the rest, so a huge upload cannot exhaust memory; a body that stops arriving for
 * longer than the idle limit is given up on (408), so a client announcing 50 bytes and sending 3
 * cannot hold the request open.
 */
import type { IncomingMessage } from 'node:http';
import type { Clock, TimerHandle } from '../../core/clock.js';

export type BodyResult =
  { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly reason: 'too-large' | 'aborted' | 'timeout' };

export interface BodyIdleLimit {
  /** Longest pause between two pieces of the body. */
  readonly ms: number;
  /** A wall clock (real waiting, whatever the venue's clock). */
  readonly clock: Clock;
}

const EMPTY = Buffer.alloc(0);

/**
 * Idle timers are armed at the end of the turn a read started in, and only for reads still waiting then.
 * A small body arrives in the packet of its headers and has ended by then (its 'end' is a nextTick), so
 * the usual POST costs no timer at all: a setTimeout and clearTimeout per request showed as about 3 % of
 * the signed contract placement's CPU (issue 12). The deadline is the same — counted from the start of
 * the read or its last piece — only the timer is set a few microseconds later.
 */
const toArm: (() => void)[] = [];
let armScheduled = false;

function armAtTurnEnd(arm: () => void): void {
  toArm.push(arm);
  if (armScheduled) return;
  armScheduled = true;
  setImmediate(armAll);
}

function armAll(): void {
  armScheduled = false;
  for (const arm of toArm.splice(0)) arm();
}

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const NO_BODY: BodyResult = { ok: true, body: EMPTY };

/**
 * A body is announced and not all of it has been parsed yet. When node:http hands a request over, its
 * body has not been parsed even if it came in the same packet as the headers: the parser goes on to it
 * after the 'request' event, in the same read, and the next tick runs once the parser has pushed it
 * (on a socket, before the parser has marked the message complete). A caller that waits for that tick
 * usually finds the whole body buffered, and readBody then takes it without listeners or a Promise.
 */
export function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && !noBodyAnnounced(req);
}

/**
 * Every byte of the body is in the stream's buffer: the message is complete, or its Content-Length
 * (the framing when there is no Transfer-Encoding) is buffered — the bytes after it are the next request's.
 */
function wholeBodyBuffered(req: IncomingMessage, declared: string | undefined): boolean {
  if (req.complete) return true;
  return declared !== undefined && req.headers['transfer-encoding'] === undefined && req.readableLength === Number(declared);
}

/** No length and no chunked encoding: HTTP/1.1 says there is no body, so there is nothing to wait for. */
function noBodyAnnounced(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared === '0' || (declared === undefined && req.headers['transfer-encoding'] === undefined);
}

/**
 * The body, or a Promise of it when it has to be waited for: a request without a body (the usual signed
 * GET, DELETE and query-string POST), and one whose body has been parsed whole (see bodyPending), are
 * answered without a trip through the microtask queue.
 */
export function readBody(req: IncomingMessage, maxBytes: number, idle?: BodyIdleLimit): BodyResult | Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return TOO_LARGE;
  if (noBodyAnnounced(req)) {
    req.resume();
    return NO_BODY;
  }
  if (wholeBodyBuffered(req, declared)) {
    // read() returns the buffer as one Buffer (null when it is empty); resume() lets the stream end
    // when the parser marks the message complete, as it does on the path below.
    const body = (req.read() as Buffer | null) ?? EMPTY;
    if (!req.complete) req.resume();
    return body.length > maxBytes ? TOO_LARGE : { ok: true, body };
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let timer: TimerHandle | undefined;
    // One timer for the whole body, not one per piece: a piece only moves the time of the last activity,
    // and when the timer fires it gives up if the body has been idle that long, else waits the rest.
    let lastActivity = 0;
    const check = () => {
      if (!idle) return;
      const quietUntil = lastActivity + idle.ms;
      if (idle.clock.now() >= quietUntil) finish({ ok: false, reason: 'timeout' });
      else timer = idle.clock.setTimer(quietUntil, check);
    };
    const finish = (r: BodyResult) => {
      if (done) return;
      done = true;
      idle?.clock.clearTimer(timer);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('aborted', onAborted);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      if (idle) lastActivity = idle.clock.now();
      size += chunk.length;
      if (size > maxBytes) {
        // Stop buffering; the rest is discarded while the 413 goes out.
        req.resume();
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, size) });
    const onError = () => finish({ ok: false, reason: 'aborted' });
    const onAborted = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
    if (idle) {
      lastActivity = idle.clock.now();
      armAtTurnEnd(() => {
        if (!done) timer = idle.clock.setTimer(lastActivity + idle.ms, check);
      });
    }
  });
}
