/** Queues API over real HTTP: order, validation, colour uniqueness, plan limit, permissions. */
import assert from "node:assert/strict";
import { plans } from "../actors/platform/collections.ts";
import { PLATFORM } from "../actors/platform/collections.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("GET /queue lists by prioridade and GET /queue/{id} reads one", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const created = await admin.post("/queue", {
      name: "Financeiro",
      color: "#aa0000",
      prioridade: 0,
    });
    assert.equal(created.status, 200);
    const list = await agent.get("/queue");
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.map((q: { name: string }) => q.name), [
      "Financeiro",
      "Suporte",
      "Vendas",
    ]);
    assert.equal((await agent.get("/queue/")).body.length, 3);
    const one = await agent.get(`/queue/${created.body.id}`);
    assert.equal(one.body.name, "Financeiro");
    assert.equal(one.body.schedules.length, 7, "default opening hours are stored");
    assert.deepEqual(one.body.lunchHour, { startTime: "12:00", endTime: "13:00" });
    assert.equal((await agent.get("/queue/9999")).status, 404);
  });
});

Deno.test("POST /queue validates, refuses a used colour and needs queues:manage", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const bad = await admin.post("/queue", { name: "X", color: "#1", prioridade: "" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, "Too Short!");
    assert.equal(bad.body.fields.color, "Too Short!");
    const missing = await admin.post("/queue", {});
    assert.equal(missing.body.fields.name, "Required");
    const taken = await admin.post("/queue", { name: "Outra", color: "#2563EB", prioridade: 3 });
    assert.equal(taken.status, 400);
    assert.equal(taken.body.error, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const refused = await supervisor.post("/queue", {
      name: "Outra",
      color: "#123456",
      prioridade: 3,
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "ERR_NO_PERMISSION");
  });
});

Deno.test("PUT /queue/{id} keeps unsent fields, checks colour; DELETE /queue/{id} removes", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const [support, sales] = server.demo!.queueIds;
    const edit = await admin.put(`/queue/${support}`, { greetingMessage: "Olá!" });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.greetingMessage, "Olá!");
    assert.equal(edit.body.name, "Suporte");
    const clash = await admin.put(`/queue/${support}`, { color: "#16a34a" });
    assert.equal(clash.body.error, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const same = await admin.put(`/queue/${support}`, { color: "#2563eb", name: "Suporte 2" });
    assert.equal(same.status, 200, "a queue may keep its own colour");
    assert.equal((await agent.put(`/queue/${support}`, { name: "Nope" })).status, 403);
    assert.equal((await agent.delete(`/queue/${sales}`)).status, 403);
    assert.equal((await admin.delete(`/queue/${sales}`)).status, 200);
    assert.equal((await admin.get(`/queue/${sales}`)).status, 404);
    assert.equal((await admin.delete(`/queue/${sales}`)).status, 404);
  });
});

Deno.test("POST /queue stops at the plan's queues limit", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await plans.in(server.deps.system, PLATFORM).update(
      server.demo!.planId,
      (old) => ({ ...old, queues: 3 }),
      () => new Error("no plan"),
    );
    assert.equal(
      (await admin.post("/queue", { name: "Terceira", color: "#333333", prioridade: 3 })).status,
      200,
    );
    const over = await admin.post("/queue", { name: "Quarta", color: "#444444", prioridade: 4 });
    assert.equal(over.status, 403);
    assert.equal(over.body.error, "ERR_PLAN_LIMIT");
  });
});

Deno.test("queues of another company answer 404", async () => {
  await withServer(async (server) => {
    const superUser = await server.login("super@balcao.local");
    const [support] = server.demo!.queueIds;
    assert.equal((await superUser.get(`/queue/${support}`)).status, 404);
    assert.equal((await superUser.put(`/queue/${support}`, { name: "Hack" })).status, 404);
    assert.equal((await superUser.delete(`/queue/${support}`)).status, 404);
    assert.equal((await superUser.get("/queue")).body.length, 0);
    const named = await superUser.get(`/queue?companyId=${server.demo!.companyId}`);
    assert.equal(named.body.length, 2, "a super user may name another company");
  });
});

Deno.test("POST /queue requires prioridade, checks the ##:## hours and the chatbot type", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const base = { name: "Horários", color: "#0f0f0f" };
    const empty = await admin.post("/queue", { ...base, prioridade: "", color: "" });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.fields.prioridade, "Required", "an empty prioridade is not 0");
    assert.equal(empty.body.fields.color, "Required");
    const hours = await admin.post("/queue", {
      ...base,
      prioridade: 1,
      schedules: [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "25:00", endTime: "18:00" }],
      lunchHour: { startTime: "12", endTime: "13:00" },
    });
    assert.equal(hours.status, 400);
    assert.equal(hours.body.fields["schedules.0.startTime"], "Invalid time");
    assert.equal(hours.body.fields["lunchHour.startTime"], "Invalid time");
    const bot = await admin.post("/queue", { ...base, prioridade: 1, typeChatbot: "robot" });
    assert.equal(bot.status, 400);
    assert.ok(bot.body.fields.typeChatbot);
    const router = await admin.post("/queue", { ...base, prioridade: 1, tempoRoteador: 7 });
    assert.equal(router.body.fields.tempoRoteador, "Invalid interval");
    const ok = await admin.post("/queue", {
      ...base,
      prioridade: "2",
      ativarRoteador: true,
      tempoRoteador: 15,
      typeChatbot: "typebot",
      typebotId: "bot-1",
      schedules: [{ weekday: "Sábado", weekdayEn: "saturday", startTime: "09:00", endTime: "13:30" }],
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.prioridade, 2);
    assert.equal(ok.body.tempoRoteador, 15);
    assert.equal(ok.body.typeChatbot, "typebot");
    assert.deepEqual(ok.body.schedules[0].endTime, "13:30");
  });
});
