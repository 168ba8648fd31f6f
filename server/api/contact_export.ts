/**
 * Contact export (spec 001 §2.14, §7, §9): `GET /exportar/baixar` with `tags`, `queueIds`
 * and `contactIds` as JSON strings writes a semicolon CSV (Nome;Telefone;Email, the import's
 * own columns) and answers `{ filePath }`; the file is then fetched from that path by an
 * authenticated user of the company allowed to export, as `contacts.csv`.
 *
 * Filters: `contactIds` picks those contacts; otherwise `tags` and `queueIds` keep contacts
 * with at least one ticket that has one of the tags and is in one of the queues (a filter
 * left empty does not restrict). Files live in `{dataDir}/company{id}/exports/`; exports
 * older than an hour are removed when a new one is written.
 */
import { join } from "node:path";
import { Hono } from "hono";
import { contactsByName } from "../../actors/contacts/mod.ts";
import { companyMediaDir, isSafeFileName, newFileName } from "../../actors/messages/media_files.ts";
import { deskState } from "../../actors/tickets/mod.ts";
import { type Contact, ContactExportQuery } from "../../domain/contact.ts";
import { notFound } from "../../domain/errors.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";

const EXPORT_TTL_MS = 3600_000;
const FILE_SUFFIX = "-contacts.csv";


/** One CSV cell: quoted when needed; a leading formula character is neutralised. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The CSV text of `contacts` (BOM first, so spreadsheet programs read UTF-8). */
export function contactsCsv(contacts: readonly Contact[]): string {
  const lines = ["Nome;Telefone;Email"];
  for (const c of contacts) lines.push([c.name, c.number, c.email].map(cell).join(";"));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

function exportDir(dataDir: string, companyId: number): string {
  return join(companyMediaDir(dataDir, companyId), "exports");
}

async function removeOldExports(dir: string, now: number): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(FILE_SUFFIX)) continue;
    const written = Number(entry.name.split("-")[0]);
    if (now - written > EXPORT_TTL_MS) await Deno.remove(join(dir, entry.name)).catch(() => {});
  }
}

/** The export routes, mounted at `/exportar`. */
export function contactExportRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const exporter = [requireAuth(), requirePermission("contact-page:exports")] as const;

  app.get("/baixar", ...exporter, async (c) => {
    const query = parseQuery(c, ContactExportQuery);
    const { system, config } = c.get("deps");
    const companyId = c.get("principal").companyId;
    let contacts = await contactsByName(system, companyId);
    if (query.contactIds.length) {
      const wanted = new Set(query.contactIds);
      contacts = contacts.filter((x) => wanted.has(x.id));
    } else if (query.tags.length || query.queueIds.length) {
      const tags = new Set(query.tags);
      const queueIds = new Set(query.queueIds);
      const { index } = await deskState(system, companyId);
      contacts = contacts.filter((x) =>
        [...(index.byContact.get(x.id) ?? [])].some((ticketId) => {
          const t = index.byId.get(ticketId);
          if (!t) return false;
          const tagOk = !tags.size || t.tagIds.some((id) => tags.has(id));
          const queueOk = !queueIds.size || (t.queueId !== null && queueIds.has(t.queueId));
          return tagOk && queueOk;
        })
      );
    }
    const dir = exportDir(config.dataDir, companyId);
    await Deno.mkdir(dir, { recursive: true });
    const now = Date.now();
    await removeOldExports(dir, now);
    const name = newFileName("contacts.csv", "text/csv", now);
    await Deno.writeTextFile(join(dir, name), contactsCsv(contacts), { createNew: true });
    return c.json({ filePath: `/exportar/files/${name}` });
  });

  app.get("/files/:name", ...exporter, async (c) => {
    const name = c.req.param("name");
    const gone = () => notFound("ERR_NOT_FOUND", `Export ${name} does not exist`);
    if (!isSafeFileName(name) || !name.endsWith(FILE_SUFFIX)) throw gone();
    const path = join(exportDir(c.get("deps").config.dataDir, c.get("principal").companyId), name);
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch {
      throw gone();
    }
    return new Response(file.readable, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="contacts.csv"',
        "cache-control": "private, no-store",
      },
    });
  });

  return app;
}
