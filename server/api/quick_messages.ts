/**
 * Quick replies (spec 001 §2.18, §5, §6, §7). Everyone creates its own; admin and supervisor
 * (`quick-messages:manageAll`) change any and set `geral`; a plain user changes only its own
 * non-general ones and does not see other users' private ones (404, as if absent).
 */
import { Hono } from "hono";
import { quickMessages } from "../../actors/quick_messages/collection.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import {
  canChangeQuickMessage,
  canSeeQuickMessage,
  messageRequired,
  QUICK_MEDIA,
  type QuickMessage,
  QuickMessageInput,
  QuickMessageListQuery,
} from "../../domain/quick_message.ts";
import { MSG } from "../../domain/text.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseQuery, parseWith } from "../http/validate.ts";
import { deleteMediaFiles, saveMediaFile, signedMediaUrl } from "./media_links.ts";
import { readUpload, requireExtension } from "./upload_field.ts";

const quickMissing = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Quick message ${id} does not exist`);

function actor(who: Principal) {
  return { id: who.id, manageAll: can(who, "quick-messages:manageAll") };
}

/** A quick reply as the API shows it: the record plus a signed `mediaUrl`. */
async function view(deps: AppDeps, q: QuickMessage) {
  return { ...q, mediaUrl: await signedMediaUrl(deps, q.companyId, q.mediaPath) };
}

/** 400 on `message` when it is empty and no file is (or is about to be) attached (001 §5). */
function requireMessage(input: QuickMessageInput, hasFile: boolean): void {
  if (messageRequired(input, hasFile)) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `message: ${MSG.obrigatorio}`,
      fields: { message: MSG.obrigatorio },
    });
  }
}

function checkInput(who: Principal, input: QuickMessageInput, hasFile: boolean): void {
  requireMessage(input, hasFile);
  if (input.geral && !actor(who).manageAll) throw forbidden("Only admin and supervisor set geral");
}

/** The quick-message routes, mounted at `/quick-messages`. */
export function quickMessageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  /** The record the caller may see, or the 404. */
  async function visible(deps: AppDeps, who: Principal, id: number): Promise<QuickMessage> {
    const q = await quickMessages.in(deps.system, who.companyId).get(id);
    if (!q || !canSeeQuickMessage(actor(who), q)) throw quickMissing(id);
    return q;
  }

  /** The record the caller may change: 404 when unseen, 403 when seen but not its to change. */
  async function changeable(deps: AppDeps, who: Principal, id: number): Promise<QuickMessage> {
    const q = await visible(deps, who, id);
    if (!canChangeQuickMessage(actor(who), q)) {
      throw forbidden(`Quick message ${id}: a user changes only its own non-geral replies`);
    }
    return q;
  }

  app.get("/list", auth, async (c) => {
    parseQuery(c, QuickMessageListQuery);
    const who = c.get("principal");
    const all = await quickMessages.in(c.get("deps").system, who.companyId).list();
    const mine = all.filter((q) => q.geral || q.userId === who.id)
      .sort((a, b) => a.shortcode.localeCompare(b.shortcode, "pt") || a.id - b.id);
    return c.json(await Promise.all(mine.map((q) => view(c.get("deps"), q))));
  });

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const who = c.get("principal");
    const all = await quickMessages.in(c.get("deps").system, who.companyId).list();
    const hits = all
      .filter((q) => canSeeQuickMessage(actor(who), q))
      .filter((q) => matchesSearch(query.searchParam, q.shortcode, q.message))
      .sort((a, b) => a.shortcode.localeCompare(b.shortcode, "pt") || a.id - b.id);
    const page = paginate(hits, query.pageNumber);
    const records = await Promise.all(page.rows.map((q) => view(c.get("deps"), q)));
    return c.json({ records, count: page.count, hasMore: page.hasMore });
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => quickMissing(c.req.param("id")));
    return c.json(await view(c.get("deps"), await visible(c.get("deps"), c.get("principal"), id)));
  });

  app.post("/", auth, async (c) => {
    const { file, fields } = await readUpload(c);
    const input = parseWith(QuickMessageInput, fields);
    const who = c.get("principal");
    checkInput(who, input, !!file);
    if (file) requireExtension(file, QUICK_MEDIA);
    const deps = c.get("deps");
    const saved = file ? await saveMediaFile(deps, who.companyId, file) : null;
    const record = await quickMessages.in(deps.system, who.companyId).create((id, now) => ({
      id,
      companyId: who.companyId,
      userId: who.id,
      shortcode: input.shortcode,
      message: input.message,
      geral: input.geral,
      status: input.status,
      caption: input.caption,
      mediaPath: saved,
      mediaName: saved ? file!.name : null,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(await view(deps, record));
  });

  app.put("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => quickMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    const old = await changeable(deps, who, id);
    const { fields } = await readUpload(c);
    const input = parseWith(QuickMessageInput, {
      shortcode: old.shortcode,
      message: old.message,
      geral: old.geral,
      status: old.status,
      caption: old.caption,
      mediaName: old.mediaName,
      ...fields,
    });
    checkInput(who, { ...input, mediaName: input.mediaName ?? old.mediaName }, false);
    const { mediaName: _ignored, ...rest } = input;
    const record = await quickMessages.in(deps.system, who.companyId).update(
      id,
      (current, now) => ({ ...current, ...rest, updatedAt: now }),
      () => quickMissing(id),
    );
    return c.json(await view(deps, record));
  });

  app.delete("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => quickMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    await changeable(deps, who, id);
    const removed = await quickMessages.in(deps.system, who.companyId).remove(
      id,
      () => quickMissing(id),
    );
    if (removed.mediaPath) await deleteMediaFiles(deps, who.companyId, [removed.mediaPath]);
    return c.json({ message: "Quick message deleted" });
  });

  app.post("/:id/media-upload", auth, async (c) => {
    const id = idParam(c, "id", () => quickMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    await changeable(deps, who, id);
    const { file } = await readUpload(c, ["file", "typeArch", "medias", "media"]);
    if (!file) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: `file: ${MSG.obrigatorio}`,
        fields: { file: MSG.obrigatorio },
      });
    }
    requireExtension(file, QUICK_MEDIA);
    const saved = await saveMediaFile(deps, who.companyId, file);
    let previous: string | null = null;
    const record = await quickMessages.in(deps.system, who.companyId).update(
      id,
      (current, now) => {
        previous = current.mediaPath;
        return { ...current, mediaPath: saved, mediaName: file.name, updatedAt: now };
      },
      () => quickMissing(id),
    ).catch(async (error: unknown) => {
      await deleteMediaFiles(deps, who.companyId, [saved]);
      throw error;
    });
    if (previous) await deleteMediaFiles(deps, who.companyId, [previous]);
    return c.json({ mensagem: "Arquivo Anexado", ...(await view(deps, record)) });
  });

  app.delete("/:id/media-upload", auth, async (c) => {
    const id = idParam(c, "id", () => quickMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    const old = await changeable(deps, who, id);
    // Without its file a reply needs a message (001 §5): refuse to leave it with neither.
    requireMessage({ ...old, mediaName: null }, false);
    let previous: string | null = null;
    const record = await quickMessages.in(deps.system, who.companyId).update(
      id,
      (current, now) => {
        previous = current.mediaPath;
        return { ...current, mediaPath: null, mediaName: null, updatedAt: now };
      },
      () => quickMissing(id),
    );
    if (previous) await deleteMediaFiles(deps, who.companyId, [previous]);
    return c.json({ mensagem: "Arquivo Excluído", ...(await view(deps, record)) });
  });

  return app;
}
