/**
 * What `perpetua run` prints on the console: log lines, and on a terminal one status line kept at the
 * bottom (log lines are written above it, then it is redrawn). Off a terminal there is no status
 * line: the runner writes a status log line now and then instead.
 */
import { Writable } from 'node:stream';
import winston from 'winston';

export interface TerminalOptions {
  readonly out: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Keep a status line at the bottom (a terminal). */
  readonly statusLine: boolean;
  /** Colour log levels. */
  readonly colour: boolean;
}

const CLEAR = '\r\x1b[2K';

export class Terminal {
  private status = '';

  constructor(private readonly o: TerminalOptions) {}

  get hasStatusLine(): boolean {
    return this.o.statusLine;
  }

  /** A full line above the status line. */
  line(text: string): void {
    if (this.o.statusLine && this.status) this.o.out.write(`${CLEAR}${text}\n${this.status}`);
    else this.o.out.write(`${text}\n`);
  }

  /** Replaces the status line (terminal only). */
  setStatus(text: string): void {
    if (!this.o.statusLine) return;
    const width = (this.o.out as NodeJS.WriteStream).columns ?? 160;
    this.status = text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text;
    this.o.out.write(`${CLEAR}${this.status}`);
  }

  /** Removes the status line (before the summary). */
  clearStatus(): void {
    if (this.o.statusLine && this.status) this.o.out.write(CLEAR);
    this.status = '';
  }

  /** A winston transport that prints through this terminal: `12:00:01 info placed mm1 …`. */
  transport(level: string): winston.transport {
    const colour = this.o.colour;
    const stream = new Writable({
      write: (chunk: Buffer | string, _enc, done) => {
        this.line(String(chunk).replace(/\n$/, ''));
        done();
      },
    });
    return new winston.transports.Stream({
      stream,
      level,
      format: winston.format.combine(
        winston.format.timestamp({ format: 'HH:mm:ss' }),
        ...(colour ? [winston.format.colorize()] : []),
        // Ids and other details go to the log file; the console keeps warnings' and errors' details only.
        winston.format.printf(
          (i) => `${String(i.timestamp)} ${i.level} ${String(i.message)}${/warn|error/.test(String(i.level)) ? metaSuffix(i) : ''}`,
        ),
      ),
    });
  }
}

function metaSuffix(info: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info)) if (k !== 'level' && k !== 'message' && k !== 'timestamp' && v !== undefined) rest[k] = v;
  return Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
}
