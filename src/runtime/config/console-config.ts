/**
 * The `console:` section of the run config: the HTTP API, web console, /metrics and webhook of a
 * running bot. Absent: no server at all (the default).
 */
import { z } from 'zod';
import { envName } from './env-name.js';

export const WEBHOOK_EVENTS = ['fill', 'kill-switch', 'drift', 'start', 'stop'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const webhookSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .describe('Where notifications are POSTed as JSON. Only its host is ever logged (such URLs often carry a token).'),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .default([...WEBHOOK_EVENTS])
      .describe('Which notifications to send: fill, kill-switch, drift, start, stop.'),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(5)
      .describe('Attempts per notification (a 5xx, 429 or network failure is tried again; a 4xx is not).'),
    retryDelayMs: z
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(1000)
      .describe('Wait before the first retry, ms; doubled at each further one.'),
    timeoutMs: z.number().int().min(100).max(60_000).default(5000).describe('Timeout of one POST, ms.'),
  })
  .describe('Notifications to a generic webhook. The body never holds a key, secret or token.');

export const consoleSchema = z
  .strictObject({
    port: z
      .number()
      .int()
      .min(0)
      .max(65_535)
      .describe('Port of the web console, its HTTP API and /metrics (0: any free port; the URL is printed at start).'),
    host: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('Address to bind. The default serves this machine only; any other lets whoever reaches it with the token steer the bot.'),
    tokenEnv: envName
      .default('PERPETUA_CONSOLE_TOKEN')
      .describe('Environment variable holding the bearer token every API and /metrics request must carry (16+ characters). Never logged.'),
    webhook: webhookSchema.optional(),
  })
  .describe('Web console, HTTP API and Prometheus metrics of the running bot (off when absent).');

export type ConsoleConfig = z.output<typeof consoleSchema>;
export type WebhookConfig = z.output<typeof webhookSchema>;
