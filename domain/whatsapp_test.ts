import assert from "node:assert/strict";
import { AppError } from "./errors.ts";
import { checkGreeting, heirOfDefault, newWhatsapp, settleDefault, type Whatsapp, WhatsappInput } from "./whatsapp.ts";

const base = (id: number, isDefault: boolean): Whatsapp => newWhatsapp(id, 1, 0, { name: `W${id}`, isDefault });

Deno.test("settleDefault() makes the first connection the default", () => {
  assert.equal(settleDefault([], base(1, false)).next.isDefault, true);
});

Deno.test("settleDefault() unsets the others when one becomes the default", () => {
  const result = settleDefault([base(1, true), base(2, false)], base(3, true));
  assert.deepEqual(result.unset, [1]);
});

Deno.test("settleDefault() refuses to unset the only default", () => {
  assert.throws(
    () => settleDefault([base(1, true), base(2, false)], base(1, false), base(1, true)),
    (e: unknown) => e instanceof AppError && e.code === "ERR_NO_OTHER_WHATSAPP",
  );
  assert.equal(settleDefault([base(1, true)], base(2, false)).next.isDefault, false);
});

Deno.test("heirOfDefault() passes the flag to the oldest remaining connection", () => {
  assert.equal(heirOfDefault([base(1, true), base(2, false), base(3, false)], base(1, true))?.id, 2);
  assert.equal(heirOfDefault([base(1, true), base(2, false)], base(2, false)), undefined);
});

Deno.test("checkGreeting() requires a greeting with more than one queue", () => {
  assert.throws(
    () => checkGreeting({ queueIds: [1, 2], greetingMessage: " " }),
    (e: unknown) => e instanceof AppError && e.code === "ERR_WAPP_GREETING_REQUIRED",
  );
  checkGreeting({ queueIds: [1], greetingMessage: "" });
});

Deno.test("WhatsappInput accepts the spec's interval options only", () => {
  assert.equal(WhatsappInput.parse({ name: "Loja", selectedInterval: "10" }).selectedInterval, 10);
  assert.equal(WhatsappInput.safeParse({ name: "Loja", selectedInterval: 7 }).success, false);
  assert.equal(WhatsappInput.parse({ name: "Loja", inatividade: 600 }).inatividade, 600);
  assert.equal(WhatsappInput.safeParse({ name: "Loja", inatividade: 605 }).success, false);
});
