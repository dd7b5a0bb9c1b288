/**
 * `perpetua emulator --config config/emulator.yaml [--port N]`: loads the config, starts the emulator
 * and keeps it running until SIGINT / SIGTERM, then stops it cleanly (the journal is closed, so paper
 * accounts survive the restart).
 */
import { loadEmulatorConfig, parseEmulatorConfig } from '../../emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../emulator/start-emulator.js';

export interface EmulatorCommandOptions {
  readonly config: string;
  readonly port?: number;
  /** Where the banner goes; default stdout. */
  readonly out?: (line: string) => void;
  /** Resolve once the emulator is listening instead of waiting for a signal (tests). */
  readonly detach?: boolean;
}

export async function emulatorCommand(opts: EmulatorCommandOptions): Promise<RunningEmulator> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const loaded = await loadEmulatorConfig(opts.config);
  const config = opts.port === undefined ? loaded : parseEmulatorConfig({ ...loaded, port: opts.port }, opts.config);
  const emu = await startEmulator(config);
  out(
    `emulator listening on ${emu.url} (spot /api/v3, contract /api/v1; ${emu.accounts.all().length} account(s)${emu.replayed ? `, ${emu.replayed} journaled commands replayed` : ''})`,
  );
  if (opts.detach) return emu;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emu.stop();
  out('emulator stopped');
  return emu;
}
