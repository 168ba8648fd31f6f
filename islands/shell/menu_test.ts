import assert from "node:assert/strict";
import type { SessionUser } from "../lib/session.ts";
import { routeGate, visibleMenu } from "./menu.ts";

const ALL_FLAGS = { useKanban: true, useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useAI: true };

function user(profile: SessionUser["profile"], extra: Partial<SessionUser> = {}, plan: Record<string, boolean> = ALL_FLAGS): SessionUser {
  return {
    id: 1,
    name: "U",
    email: "u@x.local",
    profile,
    super: false,
    companyId: 1,
    whatsappId: null,
    queues: [],
    company: { id: 1, name: "C", dueDate: null, plan, settings: [] },
    ...extra,
  };
}

const paths = (u: SessionUser) => visibleMenu(u).map((i) => i.path);

Deno.test("visibleMenu() gives a plain user no dashboard, service panel, admin items or announcements", () => {
  const p = paths(user("user"));
  assert.ok(p.includes("/tickets"));
  for (const hidden of ["/", "/servicePanel", "/users", "/connections", "/campaigns", "/financeiro", "/announcements"]) {
    assert.ok(!p.includes(hidden), hidden);
  }
});

Deno.test("visibleMenu() gives a supervisor the service panel, campaigns and billing but not the dashboard", () => {
  const p = paths(user("supervisor"));
  for (const shown of ["/servicePanel", "/campaigns", "/financeiro", "/connections"]) assert.ok(p.includes(shown), shown);
  assert.ok(!p.includes("/"));
});

Deno.test("visibleMenu() follows plan flags and the super flag", () => {
  const none = { useKanban: false, useCampaigns: false, useSchedules: false, useInternalChat: false, useExternalApi: false, useAI: false };
  const p = paths(user("admin", {}, none));
  for (const hidden of ["/kanban", "/campaigns", "/schedules", "/chats", "/messages-api", "/ai-module"]) assert.ok(!p.includes(hidden), hidden);
  assert.ok(p.includes("/"));
  assert.ok(paths(user("admin", { super: true })).includes("/announcements"));
});

Deno.test("routeGate() sends a plan without kanban or campaigns, and a non-super on /announcements, back to /", () => {
  const none = { useKanban: false, useCampaigns: false };
  assert.deepEqual(routeGate(user("admin", {}, none), "/kanban"), { text: "gate.upgrade", delayMs: 1000 });
  assert.deepEqual(routeGate(user("admin", {}, none), "/campaign/3/report"), { text: "gate.upgrade", delayMs: 500 });
  assert.deepEqual(routeGate(user("admin"), "/announcements"), { text: "gate.noPermission", delayMs: 500 });
  assert.equal(routeGate(user("admin", { super: true }), "/announcements"), null);
  assert.equal(routeGate(user("user"), "/kanban"), null);
});

Deno.test("routeGate() keeps plain users off the campaign pages and a plan without useAI off /ai-module", () => {
  assert.deepEqual(routeGate(user("user"), "/campaigns"), { text: "gate.noPermission", delayMs: 500 });
  assert.deepEqual(routeGate(user("user"), "/contact-lists/2/contacts"), { text: "gate.noPermission", delayMs: 500 });
  assert.equal(routeGate(user("supervisor"), "/campaigns"), null);
  assert.deepEqual(routeGate(user("admin", {}, { useAI: false }), "/ai-module"), { text: "gate.upgrade", delayMs: 1000 });
  assert.equal(routeGate(user("user"), "/ai-module"), null);
});

Deno.test("routeGate() sends a plain user from the dashboard to the inbox; admins and supervisors stay", () => {
  assert.deepEqual(routeGate(user("user"), "/"), { text: "gate.noPermission", delayMs: 500, to: "/tickets" });
  assert.equal(routeGate(user("admin"), "/"), null);
  assert.equal(routeGate(user("supervisor"), "/"), null);
});

Deno.test("routeGate() refuses a super-only settings tab opened by link to anyone but super; other tabs stay open", () => {
  for (const tab of ["companies", "newCompany", "plans", "helps", "colors", "logos", "documents", "certificate"]) {
    assert.deepEqual(routeGate(user("admin"), "/settings", `?tab=${tab}`), { text: "gate.noPermission", delayMs: 500 }, tab);
    assert.equal(routeGate(user("admin", { super: true }), "/settings", `?tab=${tab}`), null, tab);
  }
  for (const search of ["", "?tab=options", "?tab=hours", "?tab=keywords", "?tab=nonsense"]) {
    assert.equal(routeGate(user("admin"), "/settings", search), null, search);
  }
});

Deno.test("visibleMenu() and routeGate() hide the campaign routes without the browser's cshow flag (spec 002 §2.1), on top of plan and profile", () => {
  const admin = user("admin");
  const campaignPaths = ["/campaigns", "/contact-lists", "/campaigns-config"];
  const shown = visibleMenu(admin, { cshow: true }).map((i) => i.path);
  const hidden = visibleMenu(admin, { cshow: false }).map((i) => i.path);
  for (const p of campaignPaths) {
    assert.ok(shown.includes(p), p);
    assert.ok(!hidden.includes(p), p);
  }
  assert.equal(hidden.length, shown.length - campaignPaths.length, "nothing else depends on the flag");
  for (const p of [...campaignPaths, "/contact-lists/2/contacts"]) {
    assert.deepEqual(routeGate(admin, p, "", { cshow: false }), { text: "gate.upgrade", delayMs: 1000 }, p);
    assert.equal(routeGate(admin, p, "", { cshow: true }), null, p);
  }
  assert.deepEqual(routeGate(admin, "/campaign/3/report", "", { cshow: false }), { text: "gate.upgrade", delayMs: 500 });
  // The plan and the profile still decide first.
  assert.deepEqual(routeGate(user("user"), "/campaigns", "", { cshow: true }), { text: "gate.noPermission", delayMs: 500 });
  assert.deepEqual(routeGate(user("admin", {}, { useCampaigns: false }), "/campaigns", "", { cshow: true }), { text: "gate.upgrade", delayMs: 1000 });
  assert.equal(routeGate(admin, "/kanban", "", { cshow: false }), null);
});
