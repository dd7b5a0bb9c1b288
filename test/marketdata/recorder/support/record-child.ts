/**
 * Child process for the crash tests: `node record-child.js <config.yaml>` runs `perpetua record` as
 * the CLI would (signals handled, system clock), prints the summary as JSON when it stops cleanly,
 * and is killed by the parent when a crash is wanted.
 */
import { recordCommand } from '../../../../src/app/cli/record-command.js';

const config = process.argv[2]!;
recordCommand({ config, progress: false })
  .then((summary) => {
    process.stdout.write(`${JSON.stringify({ reason: summary.reason, records: summary.records, error: summary.error ?? null })}\n`);
    process.exit(0);
  })
  .catch((e: unknown) => {
    process.stderr.write(`record-child: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
