/**
 * winston logging: pretty on a terminal, JSON lines in a file. Every message and meta value passes the
 * process-wide Redactor, so a secret that slips into a log line is masked before it is written.
 */
import winston from 'winston';
import { type Clock, SystemClock } from './clock.js';
import { globalRedactor } from './redact.js';

export interface LoggerOptions {
  level?: string;
  /** JSON-lines log file; omitted → console only. */
  file?: string;
  /** Console output off (tests, the status-line mode). */
  quiet?: boolean;
  /** Where the file lines' `time` (ISO UTC) comes from; default the system clock. */
  clock?: Pick<Clock, 'now'>;
}

const redactFormat = winston.format((info) => {
  const out = info as Record<string | symbol, unknown>;
  for (const key of Object.keys(out)) {
    const v = out[key];
    if (typeof v === 'string') out[key] = globalRedactor.redact(v);
    else if (v && typeof v === 'object') out[key] = globalRedactor.redactValue(v);
  }
  return info;
});

export function createLogger(opts: LoggerOptions = {}): winston.Logger {
  const transports: winston.transport[] = [];
  if (!opts.quiet) {
    transports.push(
      new winston.transports.Console({
        stderrLevels: ['error', 'warn', 'info', 'debug'],
        format: process.stderr.isTTY
          ? winston.format.combine(
              winston.format.colorize(),
              winston.format.printf((i) => `${i.level} ${String(i.message)}${metaSuffix(i)}`),
            )
          : winston.format.combine(winston.format.printf((i) => `${i.level} ${String(i.message)}${metaSuffix(i)}`)),
      }),
    );
  }
  if (opts.file) {
    // A log file is read after the fact: every line says when, first (the console shows its own clock).
    const clock = opts.clock ?? new SystemClock();
    const stamp = winston.format((info) => Object.assign({ time: new Date(clock.now()).toISOString() }, info));
    transports.push(new winston.transports.File({ filename: opts.file, format: winston.format.combine(stamp(), winston.format.json()) }));
  }
  if (transports.length === 0) transports.push(new winston.transports.Console({ silent: true }));
  return winston.createLogger({
    level: opts.level ?? 'info',
    format: winston.format.combine(redactFormat(), winston.format.json()),
    transports,
  });
}

function metaSuffix(info: Record<string, unknown>): string {
  const { level: _l, message: _m, ...rest } = info;
  const keys = Object.keys(rest).filter((k) => typeof k === 'string');
  if (keys.length === 0) return '';
  return ` ${JSON.stringify(Object.fromEntries(keys.map((k) => [k, rest[k]])))}`;
}
