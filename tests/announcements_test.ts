/** Announcements (issue #6): the super-only CRUD, media, per-user unread lists and live events. */
import assert from "node:assert/strict";
import {
  type Announcement,
  isVideoMedia,
  unreadAnnouncements,
  videoEmbeds,
  withReadMark,
} from "../domain/announcement.ts";
import { type Client, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { withSockets } from "./helpers/ws.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function fileForm(name: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new File([PNG], name, { type: "application/octet-stream" }));
  return form;
}

function record(id: number, priority: number, createdAt: number, status = true): Announcement {
  return {
    id,
    title: `A${id}`,
    text: "t",
    priority,
    status,
    mediaPath: null,
    mediaName: null,
    companyId: 1,
    createdBy: 1,
    createdAt,
    updatedAt: createdAt,
  };
}

/** Titles of the caller's unread announcements, in the order the API gives them. */
async function unreadTitles(client: Client, companyId: number): Promise<string[]> {
  const r = await client.get(`/announcements/unread/${companyId}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body as Announcement[]).map((a) => a.title);
}

Deno.test("unreadAnnouncements() keeps active unread ones, priority first then newest", () => {
  const all = [record(1, 3, 10), record(2, 1, 5), record(3, 3, 20), record(4, 1, 30, false), record(5, 2, 1)];
  assert.deepEqual(unreadAnnouncements(all, new Set([3])).map((a) => a.id), [2, 5, 1]);
});

Deno.test("withReadMark() adds the id once and drops ids of deleted announcements", () => {
  assert.deepEqual(withReadMark([7, 2, 9], 4, new Set([2, 4, 9])), [2, 4, 9]);
  assert.deepEqual(withReadMark([4], 4, new Set([4])), [4]);
});

Deno.test("videoEmbeds() embeds YouTube and Vimeo links only; isVideoMedia() is the .mp4 rule", () => {
  const text = "Veja https://www.youtube.com/watch?v=dQw4w9WgXcQ e https://vimeo.com/76979871 " +
    "e https://youtu.be/dQw4w9WgXcQ e https://example.com/watch?v=dQw4w9WgXcQ";
  assert.deepEqual(videoEmbeds(text), [
    "https://www.youtube.com/embed/dQw4w9WgXcQ",
    "https://player.vimeo.com/video/76979871",
  ]);
  assert.deepEqual(videoEmbeds("javascript:alert(1) https://youtube.com/embed/\"><x"), []);
  assert.equal(isVideoMedia("clip.MP4"), true);
  assert.equal(isVideoMedia("/media/1/a.mp4?exp=1&sig=2"), true);
  assert.equal(isVideoMedia("photo.png"), false);
  assert.equal(isVideoMedia(null), false);
});

Deno.test("POST/GET/PUT/DELETE /announcements: the super user manages them, an admin gets 403", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");

    const created = await owner.post("/announcements", { title: "Manutenção", text: "Sábado às 22h" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const a = created.body;
    assert.equal(a.priority, 3, "default priority 3");
    assert.equal(a.status, true, "active by default");
    assert.equal(a.mediaPath, null);
    assert.equal(a.mediaUrl, null);
    assert.equal(a.companyId, server.demo!.platformId);
    assert.equal(typeof a.createdAt, "number");

    const list = await owner.get("/announcements/?searchParam=manutencao&pageNumber=1");
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.records.map((r: Announcement) => r.id), [a.id]);
    assert.equal(list.body.count, 1);
    assert.equal(list.body.hasMore, false);
    const all = await owner.get("/announcements");
    assert.equal(all.body.count, 2, "the demo's welcome announcement and this one");

    const updated = await owner.put(`/announcements/${a.id}`, { priority: 1, status: false });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.priority, 1);
    assert.equal(updated.body.status, false);
    assert.equal(updated.body.title, "Manutenção", "fields not sent keep their value");
    assert.equal((await owner.get(`/announcements/${a.id}`)).body.priority, 1);
    const retitled = await owner.put(`/announcements/${a.id}`, { title: "Manutenção 2" });
    assert.equal(retitled.body.priority, 1, "a PUT of the title leaves the priority as stored");
    assert.equal(retitled.body.status, false);

    for (
      const [method, path] of [
        ["GET", "/announcements/"],
        ["GET", `/announcements/${a.id}`],
        ["POST", "/announcements"],
        ["PUT", `/announcements/${a.id}`],
        ["DELETE", `/announcements/${a.id}`],
        ["DELETE", `/announcements/${a.id}/media-upload`],
      ]
    ) {
      const r = await admin.request(method, path, method === "GET" ? undefined : { title: "x", text: "y" });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error, "ERR_NO_PERMISSION");
    }
    const upload = await admin.post(`/announcements/${a.id}/media-upload`, fileForm("a.png"));
    assert.equal(upload.status, 403);

    const deleted = await owner.delete(`/announcements/${a.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await owner.get(`/announcements/${a.id}`)).status, 404);
    assert.equal((await owner.delete(`/announcements/${a.id}`)).status, 404);
  });
});

Deno.test("POST/PUT /announcements answer 'Obrigatório' for a missing title or text and reject priority 4", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const empty = await owner.post("/announcements", { title: "  ", priority: 2 });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, "ERR_VALIDATION");
    assert.equal(empty.body.fields.title, "Obrigatório");
    assert.equal(empty.body.fields.text, "Obrigatório");
    const badPriority = await owner.post("/announcements", { title: "t", text: "x", priority: 4 });
    assert.equal(badPriority.status, 400);
    assert.ok(badPriority.body.fields.priority);

    const ok = await owner.post("/announcements", { title: "t", text: "x", priority: "2" });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.priority, 2);
    const blank = await owner.put(`/announcements/${ok.body.id}`, { text: "" });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.fields.text, "Obrigatório");
  });
});

Deno.test("POST /announcements/{id}/media-upload takes .png/.jpg/.jpeg only; DELETE removes the file", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const a = (await owner.post("/announcements", { title: "Com imagem", text: "x" })).body;

    const pdf = await owner.post(`/announcements/${a.id}/media-upload`, fileForm("doc.pdf"));
    assert.equal(pdf.status, 400);
    assert.equal(pdf.body.error, "ERR_VALIDATION");
    assert.match(pdf.body.message, /\.pdf/);
    const mp4 = await owner.post(`/announcements/${a.id}/media-upload`, fileForm("clip.mp4"));
    assert.equal(mp4.status, 400);
    const none = await owner.post(`/announcements/${a.id}/media-upload`, new FormData());
    assert.equal(none.status, 400);
    assert.equal(none.body.fields.file, "Obrigatório");

    const up = await owner.post(`/announcements/${a.id}/media-upload`, fileForm("Foto.PNG"));
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal(up.body.mediaName, "Foto.PNG");
    assert.match(up.body.mediaUrl, /^\/media\//);
    const media = await fetch(server.url + up.body.mediaUrl);
    assert.equal(media.status, 200);
    assert.deepEqual(new Uint8Array(await media.arrayBuffer()), PNG);

    const replaced = await owner.post(`/announcements/${a.id}/media-upload`, fileForm("b.jpg"));
    assert.equal(replaced.body.mediaName, "b.jpg");
    const old = await fetch(server.url + up.body.mediaUrl);
    await old.body?.cancel();
    assert.equal(old.status, 404, "the replaced file is removed");

    const removed = await owner.delete(`/announcements/${a.id}/media-upload`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.mediaPath, null);
    assert.equal(removed.body.mediaUrl, null);
    const gone = await fetch(server.url + replaced.body.mediaUrl);
    await gone.body?.cancel();
    assert.equal(gone.status, 404);

    const withFile = await owner.post("/announcements", fileForm("c.jpeg", { title: "Junto", text: "y", priority: "1" }));
    assert.equal(withFile.status, 201, JSON.stringify(withFile.body));
    assert.equal(withFile.body.mediaName, "c.jpeg");
    assert.equal(withFile.body.priority, 1);
    const badCreate = await owner.post("/announcements", fileForm("x.gif", { title: "t", text: "y" }));
    assert.equal(badCreate.status, 400);
    assert.equal((await owner.get("/announcements?searchParam=t")).body.records.some((r: Announcement) => r.title === "t"), false);
  });
});

Deno.test("GET /announcements/unread lists active unread ones by priority; a read mark hides one for that user only", async () => {
  await withServer(async (server) => {
    const { companyId } = server.demo!;
    const owner = await server.login("super@balcao.local");
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;

    assert.deepEqual(await unreadTitles(agent, companyId), ["Bem-vindo ao Balcão!"], "the demo's welcome");
    const welcome = (await agent.get(`/announcements/unread/${companyId}`)).body[0];
    assert.equal(welcome.read, false);
    assert.equal(welcome.priority, 3);
    const low = (await owner.post("/announcements", { title: "Baixa", text: "x", priority: 3 })).body;
    const high = (await owner.post("/announcements", { title: "Alta", text: "x", priority: 1 })).body;
    await owner.post("/announcements", { title: "Inativa", text: "x", priority: 1, status: false });
    assert.deepEqual(await unreadTitles(agent, companyId), ["Alta", "Baixa", "Bem-vindo ao Balcão!"]);

    const mark = await agent.post(`/user-announcements/${high.id}/read`, { userId: agentId, announcementId: high.id });
    assert.equal(mark.status, 200, JSON.stringify(mark.body));
    assert.equal(mark.body.announcementId, high.id);
    assert.equal((await agent.post(`/user-announcements/${high.id}/read`, {})).status, 200, "idempotent");
    assert.deepEqual(await unreadTitles(agent, companyId), ["Baixa", "Bem-vindo ao Balcão!"]);
    assert.deepEqual(await unreadTitles(admin, companyId), ["Alta", "Baixa", "Bem-vindo ao Balcão!"]);

    const forOther = await agent.post(`/user-announcements/${low.id}/read`, { userId: agentId + 1000 });
    assert.equal(forOther.status, 403);
    const mismatch = await agent.post(`/user-announcements/${low.id}/read`, { announcementId: high.id });
    assert.equal(mismatch.status, 400);
    assert.equal((await agent.post("/user-announcements/99999/read", {})).status, 404);
    assert.equal((await agent.get(`/announcements/unread/${server.demo!.platformId}`)).status, 403);
    assert.equal((await server.client().get(`/announcements/unread/${companyId}`)).status, 401);

    // Deleting a read announcement, then marking another, prunes the stale mark.
    await owner.delete(`/announcements/${high.id}`);
    await agent.post(`/user-announcements/${low.id}/read`, {});
    assert.deepEqual(await unreadTitles(agent, companyId), ["Bem-vindo ao Balcão!"]);

    // Users of another company see the platform's announcements, with their own read marks.
    const other = await createTenant(server, "Outra");
    assert.deepEqual(await unreadTitles(other.admin, other.companyId), ["Baixa", "Bem-vindo ao Balcão!"]);
    assert.equal((await other.admin.get(`/announcements/unread/${companyId}`)).status, 403);
  });
});

Deno.test("company-announcement: create, update and delete reach sockets of every company", async () => {
  await withSockets(async (server, pool) => {
    const owner = await server.login("super@balcao.local");
    const agent = await server.login("agent@demo.local");
    const other = await createTenant(server, "Segunda");
    const [demoWs, otherWs] = await Promise.all([pool.connect(agent.token!), pool.connect(other.admin.token!)]);

    const a = (await owner.post("/announcements", { title: "Ao vivo", text: "x" })).body;
    for (const ws of [demoWs, otherWs]) {
      const created = await ws.event("company-announcement", (d) => d.action === "create");
      assert.equal((created.data as { record: Announcement }).record.id, a.id);
    }
    await owner.put(`/announcements/${a.id}`, { title: "Ao vivo 2" });
    for (const ws of [demoWs, otherWs]) {
      const updated = await ws.event("company-announcement", (d) => d.action === "update");
      assert.equal((updated.data as { record: Announcement }).record.title, "Ao vivo 2");
    }
    await owner.delete(`/announcements/${a.id}`);
    for (const ws of [demoWs, otherWs]) {
      const deleted = await ws.event("company-announcement", (d) => d.action === "delete");
      assert.deepEqual(deleted.data, { action: "delete", id: a.id });
    }
  });
});
