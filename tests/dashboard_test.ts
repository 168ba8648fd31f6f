/**
 * GET /dashboard over HTTP (spec 000 §3 Dashboard response, §6, §7): every key is there with
 * its shape, the numbers follow real ticket actions and messages (accept, resolve with a
 * rating, return, inbound and outbound messages), the queue and user filters, the default
 * range, the permission (admin and supervisor; a plain user gets 403), a bad range is 400,
 * and the exports: the CSV paths of /exportar/baixar/dash(/ratings) and the page's .xlsx.
 */
import assert from "node:assert/strict";
import { noteMessage, setTicketRating } from "../actors/tickets/mod.ts";
import type { DashboardResponse } from "../domain/dashboard.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { inboundTicket, makeContact, makeUser } from "./helpers/fixtures.ts";

const KEYS = [
  "openTicketsCount", "pendingTicketsCount", "noQueueTicketsCount", "finishedTicketCount", "sentMessagesCount",
  "sentMessagesCountByUser", "receivedMessagesCount", "onlineUser", "newLeads", "openTicketsCountByUser",
  "openPendingTicketsCountByQueue", "closedTicketsCountByQueue", "closedTicketsCountByUser",
  "createdTicketsCountByQueue", "startedTicketsCountByUser", "startedTicketsCountByQueue",
  "totalCreatedTicketsCount", "totalStartedTicketsCount", "averageResponseTime", "averageWaitingTime",
  "averageResponseTimeByUser", "averageResponseTimeByQueue", "averageWaitingTimeByUser",
  "averageWaitingTimeByQueue", "ratings", "averageRating", "averageRatingByUser", "hasMore",
];

Deno.test("GET /dashboard answers every key and follows ticket actions, filters and exports", async () => {
  await withServer(async (server) => {
    const tenant = await createTenant(server, "Painel");
    const { companyId, admin, adminId } = tenant;
    const queue = await admin.post("/queue", { name: "Vendas", color: "#112233", greetingMessage: "", prioridade: 1 });
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    const queueId = queue.body.id;
    const { user: agent, client: agentClient } = await makeUser(server, companyId, { name: "Ana Agente", profile: "user", queueIds: [queueId] });
    const range = `date_from=${new Date(Date.now() - 3600_000).toISOString()}&date_to=${new Date(Date.now() + 3600_000).toISOString()}`;

    const empty = await admin.get<DashboardResponse>(`/dashboard?${range}`);
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    for (const key of KEYS) assert.ok(key in empty.body, `key ${key}`);
    assert.equal(empty.body.totalCreatedTicketsCount.rows.length, 24);
    assert.equal(empty.body.totalCreatedTicketsCount.rows[0].hour, "01:00");
    assert.deepEqual(empty.body.averageWaitingTime, { hours: 0, minutes: 0, seconds: 0 });
    assert.ok(empty.body.onlineUser.rows.some((u) => u.id === adminId));

    // Two inbound tickets in the queue from new contacts; one accepted by the agent, answered, resolved, rated 5 by the customer.
    const c1 = await makeContact(server, companyId, { name: "Cliente Um" });
    const c2 = await makeContact(server, companyId, { name: "Cliente Dois" });
    const t1 = await inboundTicket(server, companyId, { contact: c1, queueId });
    await inboundTicket(server, companyId, { contact: c2, queueId });
    await noteMessage(server.deps.system, companyId, t1.id, { preview: "oi", fromMe: false, at: Date.now(), unread: true });
    const accepted = await admin.put(`/tickets/${t1.id}`, { status: "open", userId: agent.id });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    await noteMessage(server.deps.system, companyId, t1.id, { preview: "olá", fromMe: true, at: Date.now(), unread: false });
    const resolved = await admin.put(`/tickets/${t1.id}`, { status: "closed", sendFarewellMessage: false });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    // The customer's survey answer reaches the ticket as the ratings area records it (actors/ratings).
    await setTicketRating(server.deps.system, companyId, t1.id, { ratingId: 1, rating: 5 });

    const v = (await admin.get<DashboardResponse>(`/dashboard?${range}`)).body;
    assert.equal(v.totalCreatedTicketsCount.count, 2);
    assert.equal(v.newLeads.count, 2);
    assert.deepEqual(v.newLeads.rows.map((r) => r.name).sort(), ["Cliente Dois", "Cliente Um"]);
    assert.equal(v.totalStartedTicketsCount.count, 1);
    assert.equal(v.finishedTicketCount.count, 1);
    assert.equal(v.pendingTicketsCount, 1);
    assert.equal(v.openTicketsCount, 0);
    assert.equal(v.noQueueTicketsCount, 0);
    assert.deepEqual(v.openPendingTicketsCountByQueue, [{ queue: { id: queueId, name: "Vendas", color: "#112233" }, status: "pending", ticketCount: 1 }]);
    assert.equal(v.sentMessagesCount, 1);
    assert.equal(v.receivedMessagesCount, 1);
    assert.deepEqual(v.sentMessagesCountByUser, [{ user: { id: agent.id, name: "Ana Agente" }, count: 1 }]);
    assert.deepEqual(v.closedTicketsCountByUser, [{ user: { id: agent.id, name: "Ana Agente" }, ticketCount: 1 }]);
    assert.equal(v.closedTicketsCountByQueue[0].ticketCount, 1);
    assert.equal(v.createdTicketsCountByQueue[0].ticketCount, 2);
    assert.equal(v.createdTicketsCountByQueue[0].createdAtArray.reduce((a, b) => a + b, 0), 2);
    assert.equal(v.startedTicketsCountByUser[0].startedAtArray.reduce((a, b) => a + b, 0), 1);
    assert.equal(v.startedTicketsCountByQueue[0].ticketCount, 1);
    assert.equal(v.averageWaitingTimeByUser.length, 1);
    assert.equal(v.averageResponseTimeByQueue.length, 1);
    assert.equal(v.ratingsCount, 1);
    assert.equal(v.averageRating, 5);
    assert.deepEqual(v.averageRatingByUser, [{ user: { id: agent.id, name: "Ana Agente" }, averageRating: 5, count: 1 }]);
    assert.equal(v.ratings.length, 1);
    assert.equal(v.ratings[0].rate, 5);
    assert.deepEqual(v.ratings[0].contact, { id: c1.id, name: "Cliente Um", number: c1.number });
    assert.equal(v.ratings[0].ticket?.uuid, t1.uuid);
    assert.equal(v.hasMore, false);

    // Filters: another user sees nothing of the agent's; the queue keeps everything here.
    const byAdmin = (await admin.get<DashboardResponse>(`/dashboard?${range}&userIds=[${adminId}]`)).body;
    assert.equal(byAdmin.finishedTicketCount.count, 0);
    assert.equal(byAdmin.sentMessagesCount, 0);
    const byQueue = (await admin.get<DashboardResponse>(`/dashboard?${range}&queueIds=[${queueId}]`)).body;
    assert.equal(byQueue.totalCreatedTicketsCount.count, 2);
    const earlier = (await admin.get<DashboardResponse>(
      `/dashboard?date_from=${new Date(Date.now() - 5 * 3600_000).toISOString()}&date_to=${new Date(Date.now() - 3 * 3600_000).toISOString()}`,
    )).body;
    assert.equal(earlier.totalCreatedTicketsCount.count, 0);
    assert.equal(earlier.pendingTicketsCount, 1, "live counts do not depend on the range");

    // Default range: today 08:00–18:00 in São Paulo (the default zone)...
    const def = (await admin.get<DashboardResponse>("/dashboard")).body;
    const from = new Date(def.dateFrom);
    assert.equal((from.getUTCHours() + 24 - 3) % 24, 8);
    assert.equal(new Date(def.dateTo).getTime() - from.getTime(), 10 * 3600_000);
    // ... or in the company's own zone once its timezone setting names one (Tokyo: UTC+9, no DST).
    assert.equal((await admin.put("/settings/timezone", { value: "Asia/Tokyo" })).status, 200);
    const tokyo = new Date((await admin.get<DashboardResponse>("/dashboard")).body.dateFrom);
    assert.equal((tokyo.getUTCHours() + 9) % 24, 8);
    assert.equal((await admin.put("/settings/timezone", { value: "America/Sao_Paulo" })).status, 200);

    assert.equal((await admin.get(`/dashboard?date_from=2026-01-02T00:00:00Z&date_to=2026-01-01T00:00:00Z`)).status, 400);
    assert.equal((await agentClient.get("/dashboard")).status, 403);

    // Exports: the spec's two-step CSVs, and the page's spreadsheet.
    const path = await admin.get(`/exportar/baixar/dash?startDate=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&endDate=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`);
    assert.equal(path.status, 200);
    const csv = await admin.get(path.body.filePath);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type")!, /text\/csv/);
    assert.match(String(csv.body), /Atendimentos Finalizados;1/);
    assert.match(String(csv.body), /Ana Agente;0;1;1;1/);
    const ratingsPath = await admin.get(`/exportar/baixar/dash/ratings?${range.replace("date_from", "startDate").replace("date_to", "endDate")}`);
    const ratingsCsv = await admin.get(ratingsPath.body.filePath);
    assert.match(String(ratingsCsv.body), /Nota;Atendente;Data;Cliente;Número;Ticket/);
    assert.match(String(ratingsCsv.body), new RegExp(`5;Ana Agente;.*;Cliente Um;${c1.number};.*/tickets/${t1.uuid}`));
    assert.equal((await agentClient.get(path.body.filePath)).status, 403);

    const xlsx = await fetch(`${server.url}/dashboard/xlsx?${range}`, { headers: { authorization: `Bearer ${admin.token}` } });
    assert.equal(xlsx.status, 200);
    const bytes = new Uint8Array(await xlsx.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 2)], [0x50, 0x4b], "a zip (xlsx)");
    const { default: Excel } = await import("exceljs");
    const book = new Excel.Workbook();
    await book.xlsx.load(bytes.buffer);
    assert.deepEqual(book.worksheets.map((w) => w.name), ["Resumo", "Atendentes", "Filas", "Por hora", "Avaliações"]);
    const summary = book.getWorksheet("Resumo")!;
    const finished = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(1).value === "Atendimentos Finalizados");
    assert.equal(finished?.getCell(2).value, 1);
  });
});

Deno.test("GET /dashboard is open to supervisors (spec 000 §6 dashboard view)", async () => {
  await withServer(async (server) => {
    const supervisor = await server.login("supervisor@demo.local");
    const res = await supervisor.get<DashboardResponse>("/dashboard");
    assert.equal(res.status, 200);
    assert.equal(res.body.totalCreatedTicketsCount.rows.length, 24);
  });
});
