/**
 * The command lines of `deno task backup <file>` and `deno task restore <file>`: they read
 * BALCAO_KV and BALCAO_DATA like the server (overridable with --kv and --data), print what
 * they did, and exit 1 with the reason on any failure.
 */
import { loadConfig } from "../config.ts";
import { writeBackup } from "./backup.ts";
import { BackupError } from "./format.ts";
import { restoreBackup, verifyBackup } from "./restore.ts";

const USAGE = `usage:
  deno task backup <file> [--kv <store>] [--data <media folder>] [--no-media]
  deno task restore <file> [--kv <store>] [--data <media folder>] [--no-media] [--force] [--verify-only]`;

interface Args {
  file: string;
  kv: string;
  data?: string;
  force: boolean;
  verifyOnly: boolean;
}

function parseArgs(argv: string[]): Args {
  const config = loadConfig();
  const args: Args = { file: "", kv: config.kvPath, data: config.dataDir, force: false, verifyOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--kv") args.kv = argv[++i] ?? "";
    else if (arg === "--data") args.data = argv[++i] ?? "";
    else if (arg === "--no-media") args.data = undefined;
    else if (arg === "--force") args.force = true;
    else if (arg === "--verify-only") args.verifyOnly = true;
    else if (!arg.startsWith("--") && !args.file) args.file = arg;
    else throw new BackupError(`Unknown argument ${arg}\n${USAGE}`);
  }
  if (!args.file || !args.kv || args.data === "") throw new BackupError(USAGE);
  return args;
}

async function backup(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const result = await writeBackup({ kvPath: args.kv, dataDir: args.data, out: args.file });
  console.log(
    `Backup written to ${args.file}: ${result.entries} entries and ${result.queue} queue messages ` +
      `at versionstamp ${result.versionstamp}, ${result.files} media files (${result.fileBytes} bytes), ` +
      `${result.chunks} chunks, ${result.bytes} bytes on disk, in ${result.ms} ms`,
  );
}

async function restore(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.verifyOnly) {
    const { header, counts } = await verifyBackup(args.file);
    console.log(
      `Backup ${args.file} is intact: ${header.app} ${header.appVersion}, format ${header.format}, taken ${header.createdAt}; ` +
        `${counts.entries} entries, ${counts.queue} queue messages, ${counts.files} media files`,
    );
    return;
  }
  const result = await restoreBackup({ file: args.file, kvPath: args.kv, dataDir: args.data, force: args.force });
  console.log(
    `Restored ${args.file} (taken ${result.header.createdAt} by ${result.header.app} ${result.header.appVersion}) into ${args.kv}: ` +
      `${result.entries - result.expired} entries (${result.expired} expired meanwhile), ${result.queue} queue messages, ` +
      `${result.files} media files${args.data ? ` into ${args.data}` : ""}, in ${result.ms} ms`,
  );
  for (const path of result.keptAside) console.log(`The replaced data was kept at ${path}`);
}

if (import.meta.main) {
  const [command, ...rest] = Deno.args;
  try {
    if (command === "backup") await backup(rest);
    else if (command === "restore") await restore(rest);
    else throw new BackupError(USAGE);
  } catch (error) {
    const message = error instanceof BackupError ? error.message : `${(error as Error).stack ?? error}`;
    console.error(`${command ?? "backup"} failed: ${message}`);
    if (command === "restore") console.error("Nothing was restored.");
    Deno.exit(1);
  }
}
