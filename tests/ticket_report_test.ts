/**
 * GET /ticketreport/reports (spec 002 §2.14, §5, §7, §9): every filter on its own and three
 * together, the page sizes, the user-profile rule, and the streamed .xlsx export read back
 * with exceljs.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { setTicketTags } from "../actors/tickets/mod.ts";
import { REPORT_OTHER_USERS } from "../domain/ticket_report.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { inboundTicket, makeConnection, makeContact } from "./helpers/fixtures.ts";

async function ok<T = unknown>(request: Promise<{ status: number; body: T }>) {
  const r = await request;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Four tickets, oldest first: t1 open for the agent (support, tag VIP, contact Rita),
 * t2 pending on a second connection (sales, contact Paulo), t3 closed by the supervisor
 * (support), t4 a pending group (sales). `mid` falls between t2 and t3.
 */
async function scene(server: TestServer) {
  const companyId = server.demo!.companyId;
  const [support, sales] = server.demo!.queueIds;
  const admin = await server.login("admin@demo.local");
  const agent = await server.login("agent@demo.local");
  const idOf = (email: string) => server.demo!.logins.find((l) => l.email === email)!.id;
  const agentId = idOf("agent@demo.local");
  const supervisorId = idOf("supervisor@demo.local");
  const second = await makeConnection(server, companyId, { name: "Conexão Dois", isDefault: false });

  const rita = await makeContact(server, companyId, { name: "Rita Relatório" });
  const t1 = await inboundTicket(server, companyId, { contact: rita, queueId: support });
  await ok(agent.put(`/tickets/${t1.id}`, { status: "open" }));
  const vip = (await ok(admin.post("/tags", { name: "VIP", color: "#ff0000" }))).body as { id: number };
  await setTicketTags(server.deps.system, companyId, t1.id, [vip.id]);
  await pause(5);
  const paulo = await makeContact(server, companyId, { name: "Paulo Pendente" });
  const t2 = await inboundTicket(server, companyId, { contact: paulo, queueId: sales, whatsappId: second.id });
  await pause(5);
  const mid = new Date().toISOString();
  await pause(5);
  const t3 = await inboundTicket(server, companyId, { queueId: support });
  await ok(admin.put(`/tickets/${t3.id}`, { status: "open", userId: supervisorId }));
  // The supervisor resolves it: the report's Usuário names the closer (#41).
  const supervisor = await server.login("supervisor@demo.local");
  await ok(supervisor.put(`/tickets/${t3.id}`, { status: "closed", sendFarewellMessage: false }));
  await pause(5);
  const t4 = await inboundTicket(server, companyId, { queueId: sales, isGroup: true });
  return {
    admin, agent, agentId, supervisorId, support, sales, second, rita, paulo, vip, mid,
    ids: { t1: t1.id, t2: t2.id, t3: t3.id, t4: t4.id },
  };
}

interface Row {
  id: number;
  uuid: string;
  status: string;
  whatsappName: string;
  contactName: string;
  userName: string;
  queueName: string;
  createdAt: string;
  closedAt: string | null;
}
interface Report {
  tickets: Row[];
  totalTickets: { total: number };
}

async function report(client: Client, query: Record<string, unknown>): Promise<Report> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) params.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return (await ok(client.get<Report>(`/ticketreport/reports?${params}`))).body;
}

async function ids(client: Client, query: Record<string, unknown>): Promise<number[]> {
  const r = await report(client, query);
  assert.equal(r.totalTickets.total, r.tickets.length, "one page holds every match here");
  return r.tickets.map((t) => t.id);
}

Deno.test("GET /ticketreport/reports answers each filter of spec 002 §7, newest first", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const { t1, t2, t3, t4 } = s.ids;
    const a = s.admin;
    assert.deepEqual(await ids(a, {}), [t4, t3, t2, t1]);
    assert.deepEqual(await ids(a, { searchParam: "Rita" }), [t1]);
    assert.deepEqual(await ids(a, { searchParam: "pendente" }), [t2], "case and accents aside");
    assert.deepEqual(await ids(a, { ticketId: String(t2) }), [t2]);
    assert.deepEqual(await ids(a, { contactId: String(s.paulo.id) }), [t2]);
    assert.deepEqual(await ids(a, { whatsappId: String(s.second.id) }), [t2]);
    assert.deepEqual(await ids(a, { tags: [s.vip.id] }), [t1]);
    assert.deepEqual(await ids(a, { users: [s.agentId] }), [t1]);
    assert.deepEqual(await ids(a, { users: [s.supervisorId] }), [t3]);
    assert.deepEqual(await ids(a, { queueIds: [s.sales] }), [t4, t2]);
    assert.deepEqual(await ids(a, { status: ["open"] }), [t1]);
    assert.deepEqual(await ids(a, { status: ["closed"] }), [t3]);
    assert.deepEqual(await ids(a, { status: ["pending"] }), [t4, t2]);
    assert.deepEqual(await ids(a, { status: ["group"] }), [t4]);
    assert.deepEqual(await ids(a, { status: ["open", "group"] }), [t4, t1], "group is a union with the statuses");
    assert.deepEqual(await ids(a, { dateFrom: s.mid }), [t4, t3]);
    assert.deepEqual(await ids(a, { dateTo: s.mid }), [t2, t1]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(await ids(a, { dateFrom: tomorrow }), []);
    assert.deepEqual(await ids(a, { dateFrom: today, dateTo: today }), [t4, t3, t2, t1], "bare dates are whole days");
    // Three filters at once.
    assert.deepEqual(await ids(a, { users: [s.agentId], queueIds: [s.support], status: ["open"] }), [t1]);
    assert.deepEqual(await ids(a, { users: [s.agentId], queueIds: [s.sales], status: ["open"] }), []);
  });
});

Deno.test("GET /ticketreport/reports rows carry the table's names, and pages use the sizes of spec 002 §9", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const { t1, t2, t3, t4 } = s.ids;
    const all = await report(s.admin, {});
    const r1 = all.tickets.find((t) => t.id === t1)!;
    assert.equal(r1.contactName, "Rita Relatório");
    assert.equal(r1.userName, "Alice Atendente");
    assert.equal(r1.status, "open");
    assert.ok(r1.queueName.length > 0);
    assert.ok(r1.whatsappName.length > 0);
    assert.match(r1.uuid, /^[0-9a-f-]{36}$/);
    assert.equal(r1.closedAt, null);
    const r3 = all.tickets.find((t) => t.id === t3)!;
    assert.equal(r3.status, "closed");
    assert.equal(r3.userName, "Sérgio Supervisor");
    assert.ok(r3.closedAt && Date.parse(r3.closedAt) >= Date.parse(r3.createdAt));
    assert.equal(all.tickets.find((t) => t.id === t2)!.whatsappName, "Conexão Dois");

    const page2 = await report(s.admin, { page: "2", pageSize: "5" });
    assert.deepEqual(page2.tickets, []);
    assert.equal(page2.totalTickets.total, 4);
    const small = await report(s.admin, { page: "1", pageSize: "5" });
    assert.deepEqual(small.tickets.map((t) => t.id), [t4, t3, t2, t1]);
    for (const size of ["7", "9999999"]) {
      const refused = await s.admin.get(`/ticketreport/reports?pageSize=${size}`);
      assert.equal(refused.status, 400, size);
      assert.equal(refused.body.error, "ERR_VALIDATION");
    }
    // Without a pageSize the page holds 10 (the default).
    for (let n = 0; n < 9; n++) await inboundTicket(server, server.demo!.companyId, { queueId: s.support });
    const first = await report(s.admin, {});
    assert.equal(first.tickets.length, 10);
    assert.equal(first.totalTickets.total, 13);
    const second = await report(s.admin, { page: "2" });
    assert.equal(second.tickets.length, 3);
    assert.deepEqual(second.tickets.map((t) => t.id), [t3, t2, t1]);
  });
});

Deno.test("GET /ticketreport/reports holds a user-profile account to its own tickets (spec 002 §5, §6)", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    assert.deepEqual(await ids(s.agent, {}), [s.ids.t1], "no user filter: its own tickets only");
    assert.deepEqual(await ids(s.agent, { users: [s.agentId] }), [s.ids.t1]);
    assert.deepEqual(await ids(s.agent, { status: ["pending"] }), []);
    for (const users of [[s.supervisorId], [s.agentId, s.supervisorId]]) {
      const refused = await s.agent.get(`/ticketreport/reports?users=${JSON.stringify(users)}`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, "ERR_NO_PERMISSION");
      assert.equal(refused.body.message, REPORT_OTHER_USERS);
    }
    const exportRefused = await s.agent.get(`/ticketreport/reports/export?users=[${s.supervisorId}]`);
    assert.equal(exportRefused.status, 403);
    // A supervisor filters by anyone.
    const supervisor = await server.login("supervisor@demo.local");
    assert.deepEqual(await ids(supervisor, { users: [s.agentId] }), [s.ids.t1]);
    assert.equal((await server.client().get("/ticketreport/reports")).status, 401);
  });
});

async function readSheet(client: Client, query: string) {
  const response = await fetch(`${client.baseUrl}/ticketreport/reports/export?${query}`, {
    headers: { authorization: `Bearer ${client.token}` },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  assert.match(response.headers.get("content-disposition") ?? "", /attachment; filename="relatorio-tickets-.*\.xlsx"/);
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 2)], [0x50, 0x4b], "a zip (xlsx) file");
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer);
  const sheet = book.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { rows, total: Number(response.headers.get("x-total-count")) };
}

Deno.test("GET /ticketreport/reports/export streams an .xlsx of the same filters, read back with exceljs", async () => {
  await withServer(async (server) => {
    const s = await scene(server);
    const { t1, t2, t3, t4 } = s.ids;
    const pending = await readSheet(s.admin, `status=${encodeURIComponent('["pending"]')}`);
    assert.equal(pending.total, 2);
    assert.deepEqual(pending.rows[0], ["Ticket", "Conexão", "Contato", "Número", "Usuário", "Fila", "Status", "Criado em", "Fechado em", "Link"]);
    assert.deepEqual(pending.rows.slice(1).map((r) => r[0]), [t4, t2]);
    const paulo = pending.rows[2];
    assert.equal(paulo[1], "Conexão Dois");
    assert.equal(paulo[2], "Paulo Pendente");
    assert.equal(paulo[3], s.paulo.number);
    assert.equal(paulo[6], "PENDENTE");
    assert.ok(paulo[7] instanceof Date);
    assert.equal(paulo[8], undefined, "no closing date");
    assert.match(String(paulo[9]), new RegExp(`^${server.url}/tickets/[0-9a-f-]{36}$`));

    const all = await readSheet(s.admin, "lang=en");
    assert.equal(all.rows[0][1], "Connection");
    assert.deepEqual(all.rows.slice(1).map((r) => r[0]), [t4, t3, t2, t1]);
    assert.deepEqual(all.rows.slice(1).map((r) => r[6]), ["PENDING", "CLOSED", "PENDING", "OPEN"]);
    const closed = all.rows[2];
    assert.equal(closed[4], "Sérgio Supervisor");
    assert.ok(closed[8] instanceof Date);

    // A plain user exports its own tickets only.
    const own = await readSheet(s.agent, "");
    assert.deepEqual(own.rows.slice(1).map((r) => r[0]), [t1]);
  });
});
