/**
 * Company A of the sweeps (issue #24): the demo company filled, through the API, with one
 * record of every kind carrying a marker string unique to this run, so a response that
 * carries A's data is found by searching its text. Records of the ticket (its messages, its
 * note, its file) carry a second marker, the one an agent of A outside the ticket's queue
 * must never see.
 */
import assert from "node:assert/strict";
import { isTenantActorId } from "../../actors/tenancy/purge.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { eventually } from "./channels.ts";
import { makeUser } from "./fixtures.ts";
import { freshNumber, inboundText, receive } from "./messages.ts";
import type { Client, TestServer } from "./server.ts";
import type { IdBook } from "./sweep.ts";

/** What the sweeps know of company A. */
export interface MarkedTenant {
  companyId: number;
  admin: Client;
  /** Ids of A's records by kind (see pathsFor). */
  book: IdBook;
  /** Strings only A's records hold: the company marker, the ticket marker, uuid, tokens, number. */
  secrets: string[];
  /**
   * What an agent outside the ticket's queue must not see: the ticket's contents (its marker)
   * and the survey key its last message carries. Its id, uuid and status are not secret: the
   * contacts list shows them to every user of the company.
   */
  ticketSecrets: string[];
  ticketId: number;
  /** A plain user of A in another queue than the ticket's. */
  outsider: Client;
}

const random = () => crypto.randomUUID().replaceAll("-", "").slice(0, 10);

function ok<T extends { status: number; body: unknown }>(result: T, what: string): T {
  assert.ok(result.status >= 200 && result.status < 300, `${what}: ${result.status} ${JSON.stringify(result.body)}`);
  return result;
}

/** Fills the demo company with marked records of every kind and answers what the sweeps need. */
export async function markedTenant(server: TestServer): Promise<MarkedTenant> {
  const companyId = server.demo!.companyId;
  const [q1, q2] = server.demo!.queueIds;
  const mark = `Zqa${random()}`;
  const ticketMark = `Zqt${random()}`;
  const admin = await server.login("admin@demo.local");
  const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  const conn = (await whatsapps.in(server.deps.system, companyId).list())[0];
  const number = freshNumber();

  const contact = ok(await admin.post("/contacts", { name: `${mark} contato`, number, email: `${mark.toLowerCase()}@cliente.local` }), "contact").body;
  const ticket = ok(
    await admin.post("/tickets", { contactId: contact.id, queueId: q1, status: "open", whatsappId: conn.id, userId: adminId }),
    "ticket",
  ).body;
  ok(await admin.post(`/messages/${ticket.id}`, { body: `${ticketMark} resposta` }), "outbound message");
  await receive(server, inboundText(number, `${ticketMark} pergunta`), companyId);
  const form = new FormData();
  form.append("body", `${ticketMark} legenda`);
  form.append("medias", new File([`${ticketMark} arquivo`], `${ticketMark}.txt`, { type: "text/plain" }));
  ok(await admin.post(`/messages/${ticket.id}`, form), "media message");
  const note = ok(await admin.post("/ticket-notes", { note: `${ticketMark} nota`, ticketId: ticket.id, contactId: contact.id }), "note").body;
  const tag = ok(await admin.post("/tags", { name: `${mark} etiqueta`, color: "#E53935", kanban: 0 }), "tag").body;
  ok(await admin.post("/tags/sync", { ticketId: ticket.id, tags: [tag.id] }), "ticket tag");
  const queue = ok(await admin.post("/queue", { name: `${mark} fila`, color: "#1E88E5", prioridade: 1, greetingMessage: `${mark} saudação` }), "queue").body;
  const option = ok(await admin.post("/queue-options", { queueId: queue.id, title: `${mark} opção`, message: `${mark} mensagem` }), "queue option").body;
  const user = ok(
    await admin.post("/users", { name: `${mark} usuário`, email: `${mark.toLowerCase()}@demo.local`, password: "secret123", profile: "user", queueIds: [q1] }),
    "user",
  ).body;
  const quick = ok(await admin.post("/quick-messages", { shortcode: mark.toLowerCase(), message: `${mark} rápida` }), "quick message").body;
  const oportunidade = ok(await admin.post("/oportunidade", { name: `${mark} oport` }), "oportunidade").body;
  const sendAt = new Date(Date.now() + 86_400_000).toISOString();
  const schedule = ok(await admin.post("/schedules", { body: `${mark} agenda`, contactId: contact.id, sendAt }), "schedule").body;
  ok(await admin.put("/settings/ratingurl", { value: `https://balcao.test/${mark}` }), "setting");
  const rating = ok(
    await admin.post("/ratings", { name: `${mark} pesquisa`, message: `${mark} nota?`, options: [{ name: "Boa", value: 5 }] }),
    "rating",
  ).body;
  ok(await admin.post(`/ratings/messages/${ticket.id}`, { ratingId: rating.id }), "survey");
  const surveyKey = await eventually(async () => {
    const sent = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as { body: string }[];
    return sent.map((m) => /chavePesquisa=([\w-]+)/.exec(m.body)?.[1]).find(Boolean);
  }, 10_000, "the survey link in the simulator's outbox");
  // An event nothing emits yet: a delivery would retry on its own timer and change A's keys
  // while the sweep runs.
  const subscription = ok(
    await admin.post("/webhooks/subscriptions", { url: `https://crm.example.com/${mark}`, events: ["campaign.finished"], secret: `${mark}-segredo-0123456789` }),
    "webhook subscription",
  ).body;

  const page = (await admin.get(`/messages/${ticket.id}`)).body.messages as { id: string; mediaUrl?: string | null; body: string }[];
  assert.ok(page.length >= 3, `messages of the marked ticket: ${JSON.stringify(page)}`);
  const media = page.map((m) => m.mediaUrl).find(Boolean);
  const mediaFile = media ? new URL(media, server.url).pathname.split("/").pop()! : "sweep.txt";
  const { client: outsider } = await makeUser(server, companyId, { profile: "user", queueIds: [q2] });

  const book: IdBook = {
    company: [companyId],
    ticket: [ticket.id],
    ticketUuid: [ticket.uuid],
    contact: [contact.id],
    message: [page[0].id],
    note: [note.id],
    tag: [tag.id],
    queue: [queue.id, q1],
    queueOption: [option.id],
    user: [user.id, adminId],
    quickMessage: [quick.id],
    oportunidade: [oportunidade.id],
    schedule: [schedule.id],
    rating: [rating.id],
    subscription: [subscription.id],
    whatsapp: [conn.id],
    mediaFile: [mediaFile],
    surveyKey: [surveyKey],
    settingKey: ["ratingurl"],
  };
  return {
    companyId,
    admin,
    book,
    secrets: [mark, ticketMark, ticket.uuid, conn.token, number, surveyKey],
    ticketSecrets: [ticketMark, surveyKey],
    ticketId: ticket.id,
    outsider,
  };
}

/** Whether a KV key holds data of company `id` (DESIGN §3 key convention, users by their record). */
export function ofCompany(id: number, key: Deno.KvKey, value: unknown): boolean {
  if (key[1] === id) return true;
  if (key[0] === "counter" && key[2] === id) return true;
  if (key[0] === "timer" && isTenantActorId(id, String(key[2]))) return true;
  return typeof value === "object" && value !== null && (value as { companyId?: unknown }).companyId === id;
}

/** `text` with the first secret it holds, or undefined. */
export function leaked(text: string, secrets: readonly string[]): string | undefined {
  return secrets.find((s) => s && text.includes(s));
}
