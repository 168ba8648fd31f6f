import assert from "node:assert/strict";
import {
  CAMPAIGN_TEXTS,
  campaignCounts,
  campaignDelayMs,
  CampaignInput,
  CampaignSettings,
  CampaignSettingsInput,
  canTransition,
  hasVariable,
  isEditable,
  isPositiveConfirmation,
  pickVariant,
  renderCampaignMessage,
  settingsRows,
} from "./campaign.ts";
import { tallyRows } from "./campaign_report.ts";

const base = { name: "Black Friday", contactListId: 3, whatsappId: "1,2", scheduledAt: "2030-01-02 10:00:00", message1: "Oi {nome}" };

Deno.test("CampaignInput folds whatsappId '1,2' into whatsappIds, empty strings into null, defaults PROGRAMADA", () => {
  const v = CampaignInput.parse({ ...base, tagId: "", queueId: 4, confirmation: "false" });
  assert.deepEqual(v.whatsappIds, [1, 2]);
  assert.equal(v.tagId, null);
  assert.equal(v.queueId, 4);
  assert.equal(v.status, "PROGRAMADA");
  assert.equal(v.confirmation, false);
  assert.equal(typeof v.scheduledAt, "number");
  assert.deepEqual(CampaignInput.parse({ ...base, whatsappId: undefined, whatsappIds: [5, "6", 5] }).whatsappIds, [5, 6]);
});

Deno.test("CampaignInput answers the §5 texts", () => {
  const r = CampaignInput.safeParse({ name: "A", contactListId: "", whatsappId: "", scheduledAt: "" });
  const messages = r.error?.issues.map((i) => i.message) ?? [];
  assert.ok(messages.includes("Too Short!"));
  assert.ok(messages.includes(CAMPAIGN_TEXTS.contactListRequired));
  assert.ok(messages.includes(CAMPAIGN_TEXTS.scheduledAtRequired));
  const r2 = CampaignInput.safeParse({ ...base, whatsappId: "" });
  assert.deepEqual(r2.error?.issues.map((i) => i.message), [CAMPAIGN_TEXTS.connectionRequired]);
  const r3 = CampaignInput.safeParse({ ...base, confirmation: true });
  assert.deepEqual(r3.error?.issues.map((i) => i.path.join(".")), ["confirmationMessage1"]);
  assert.equal(CampaignInput.safeParse({ ...base, name: "x".repeat(51) }).success, false);
});

Deno.test("status machine: only a running campaign stops; a cancelled one is scheduled again", () => {
  assert.ok(canTransition("EM_ANDAMENTO", "CANCELADA"));
  assert.ok(!canTransition("PROGRAMADA", "CANCELADA"));
  assert.ok(canTransition("CANCELADA", "PROGRAMADA"));
  assert.ok(!canTransition("FINALIZADA", "PROGRAMADA"));
});

Deno.test("isEditable: INATIVA, CANCELADA, PROGRAMADA more than 1 h away", () => {
  const now = 1_000_000_000;
  assert.ok(isEditable({ status: "INATIVA", scheduledAt: now }, now));
  assert.ok(isEditable({ status: "CANCELADA", scheduledAt: now }, now));
  assert.ok(isEditable({ status: "PROGRAMADA", scheduledAt: now + 3_600_001 }, now));
  assert.ok(!isEditable({ status: "PROGRAMADA", scheduledAt: now + 3_600_000 }, now));
  assert.ok(!isEditable({ status: "EM_ANDAMENTO", scheduledAt: null }, now));
  assert.ok(!isEditable({ status: "FINALIZADA", scheduledAt: null }, now));
});

Deno.test("settings: §9 defaults and options, no duplicate shortcut, rows as JSON values", () => {
  assert.deepEqual(CampaignSettings.parse({}), { messageInterval: 240, longerIntervalAfter: 4, greaterInterval: 600, variables: [] });
  assert.equal(CampaignSettings.safeParse({ messageInterval: 7 }).success, false);
  assert.equal(CampaignSettings.safeParse({ longerIntervalAfter: 11 }).success, false);
  assert.equal(CampaignSettings.safeParse({ greaterInterval: 60 }).success, false);
  const dup = CampaignSettings.safeParse({ variables: [{ key: "loja", value: "a" }, { key: "Loja", value: "b" }] });
  assert.deepEqual(dup.error?.issues.map((i) => i.message), [CAMPAIGN_TEXTS.duplicateVariable]);
  assert.equal(CampaignSettingsInput.parse({ settings: { messageInterval: "5" } }).messageInterval, 5);
  assert.ok(hasVariable([{ key: "Loja", value: "x" }], " loja "));
  assert.deepEqual(settingsRows(CampaignSettings.parse({}))[0], { key: "messageInterval", value: "240" });
});

Deno.test("campaignDelayMs: random up to messageInterval, greaterInterval after each batch, scaled", () => {
  const s = CampaignSettings.parse({ messageInterval: 10, longerIntervalAfter: 3, greaterInterval: 50 });
  assert.equal(campaignDelayMs(s, 0, 0.5), 0);
  assert.equal(campaignDelayMs(s, 1, 0.5), 5000);
  assert.equal(campaignDelayMs(s, 3, 0.5), 50_000);
  assert.equal(campaignDelayMs(s, 3, 0.5, 0.001), 50);
  assert.equal(campaignDelayMs(s, 2, 0.9, 0), 0);
});

Deno.test("renderCampaignMessage fills the built-in and the settings' variables", () => {
  const to = { name: "Maria da Silva", number: "5511999990000", email: "m@x.com" };
  assert.equal(
    renderCampaignMessage("Oi {primeiroNome} ({nome}) {email} {numero} {loja} {x}", to, [{ key: "loja", value: "Centro" }]),
    "Oi Maria (Maria da Silva) m@x.com 5511999990000 Centro {x}",
  );
});

Deno.test("isPositiveConfirmation: 1/sim/yes, case, accents and punctuation ignored", () => {
  for (const t of ["1", "Sim", " SIM! ", "sím", "yes.", "YES"]) assert.ok(isPositiveConfirmation(t), t);
  for (const t of ["2", "não", "sim não", "simm", ""]) assert.ok(!isPositiveConfirmation(t), t);
  // Marks, emoji and punctuation around the answer do not count; a fourth letter or digit does.
  for (const t of ["si\u0301m", "sim 👍", "👍 SIM!!!", "¡Yes!", "  1.  ", "Sím\n", "sim\u0010\u0019"]) assert.ok(isPositiveConfirmation(t), t);
  for (const t of ["sim1", "12", "1 sim", "yess", "sim, obrigado", "x".repeat(10_000), "Ｓｉｍ é"]) {
    assert.ok(!isPositiveConfirmation(t), t);
  }
});

Deno.test("pickVariant spreads over the filled slots; campaignCounts sums the rows' tally", () => {
  assert.deepEqual([0, 0.34, 0.67, 0.9999].map((r) => pickVariant(3, r)), [0, 1, 2, 2]);
  const row = { id: 1, campaignId: 1, number: "1", name: "a", email: null, contactId: null, whatsappId: 1, slot: 1, message: "m", confirmationMessage: null, confirmationRequestedAt: null, confirmedAt: null, deliveredAt: null, error: null };
  const counts = campaignCounts(4, tallyRows([{ ...row, deliveredAt: 1 }, { ...row, confirmationRequestedAt: 1 }, { ...row, confirmationRequestedAt: 1, confirmedAt: 2, deliveredAt: 3 }, { ...row, error: "x" }]));
  assert.deepEqual(counts, { validContacts: 4, confirmationRequested: 2, confirmed: 1, delivered: 2, failed: 1, pending: 1 });
});

Deno.test("campaignEstimateMs: half the random wait per message and the pause at each batch end", async () => {
  const { campaignEstimateMs } = await import("./campaign.ts");
  const s = { messageInterval: 10, longerIntervalAfter: 4, greaterInterval: 100, variables: [] };
  assert.equal(campaignEstimateMs(s, 0, 0), 0);
  assert.equal(campaignEstimateMs(s, 1, 0), 0, "the first message goes at once");
  // 8 messages from the start: 7 waits, of which one (before the 5th) is the batch pause.
  assert.equal(campaignEstimateMs(s, 8, 0), (100 + 6 * 5) * 1000);
  assert.equal(campaignEstimateMs(s, 8, 0, 0.5), (100 + 6 * 5) * 500);
});

Deno.test("CampaignInput takes a group list in place of the contact list, or both; neither is 'A lista de contatos é obrigatória.'", () => {
  const { contactListId: _list, ...noList } = base;
  const group = CampaignInput.parse({ ...noList, groupListId: 12 });
  assert.deepEqual([group.contactListId, group.groupListId], [null, 12]);
  const both = CampaignInput.parse({ ...base, groupListId: "12" });
  assert.deepEqual([both.contactListId, both.groupListId], [3, 12]);
  const neither = CampaignInput.safeParse({ ...noList, contactListId: "", groupListId: "" });
  assert.deepEqual(neither.error?.issues.map((i) => [i.path.join("."), i.message]), [["contactListId", CAMPAIGN_TEXTS.contactListRequired]]);
});
