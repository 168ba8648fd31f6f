/**
 * Password recovery over HTTP (spec 002 §2.15, §5, §8; domain/password_reset.ts): the token
 * travels only by e-mail (a real local SMTP server reads it), is checked and used up by the
 * server, expires, is throttled, and a known and an unknown e-mail get the same answer under
 * the same limits (issue #38). SendGrid's API is exercised against a local fake.
 */
import assert from "node:assert/strict";
import { PLATFORM } from "../actors/platform/collections.ts";
import { passwordResets } from "../actors/platform/password_reset.ts";
import { type ApiResult, type Client, type TestServer, withServer } from "./helpers/server.ts";
import { type Mailbox, resetCodeIn, startMailbox } from "./helpers/mailbox.ts";
import { eventually } from "./helpers/channels.ts";

const AGENT = "agent@demo.local";

/** Runs `fn` with a server whose platform mails to a fresh local SMTP server. */
async function withMail(fn: (server: TestServer, mailbox: Mailbox, owner: Client) => Promise<void>) {
  const mailbox = await startMailbox();
  try {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      await mailbox.useFor(owner);
      await fn(server, mailbox, owner);
    });
  } finally {
    await mailbox.close();
  }
}

/** POSTs from client address `from` (X-Forwarded-For, trusted from the loopback test client). */
async function postFrom(server: TestServer, from: string, path: string, body: unknown): Promise<ApiResult> {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

Deno.test("password reset mails a token that the server checks, uses once and never returns; other sessions end", async () => {
  await withMail(async (server, mailbox) => {
    const anon = server.client();
    const seen: string[] = [];
    const call = async (path: string, body: unknown) => {
      const result = await anon.post(path, body);
      seen.push(JSON.stringify(result.body));
      return result;
    };
    const agent = await server.login(AGENT);
    assert.equal((await agent.get("/auth/me")).status, 200);

    const sent = await call("/users/sendemail", { email: "Agent@Demo.local " });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(Object.keys(sent.body).sort(), ["expiresAt", "sent"]);
    const mail = await mailbox.next();
    assert.equal(mail.subject, "Recuperação de senha");
    assert.equal((mail.to as { text: string }).text, AGENT);
    assert.match(mail.from!.text, /suporte@balcao\.local/);
    const code = resetCodeIn(mail);
    assert.match(mail.html || "", new RegExp(code));

    const wrong = await call("/users/checkToken", { email: AGENT, token: "ABCD-EFGH" });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, "ERR_INVALID_RESET_TOKEN");
    // Typed in lower case and without the dash, the code is the same code.
    const valid = await call("/users/checkToken", { email: AGENT, token: code.replace("-", "").toLowerCase() });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { valid: true });
    // The check does not use the code up; a wrong user with the right code is refused.
    assert.equal((await call("/users/checkToken", { email: "admin@demo.local", token: code })).status, 400);

    const differ = await call("/users/updatePassword", { email: AGENT, token: code, password: "nova-senha", confirmPassword: "outra" });
    assert.equal(differ.status, 400);
    assert.equal(differ.body.fields.confirmPassword, "As novas senhas não são iguais");
    const short = await call("/users/updatePassword", { email: AGENT, token: code, password: "1234", confirmPassword: "1234" });
    assert.equal(short.body.fields.password, "Too Short!");

    const done = await call("/users/updatePassword", { email: AGENT, token: code, password: "nova-senha", confirmPassword: "nova-senha" });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await call("/users/updatePassword", { email: AGENT, token: code, password: "outra-senha", confirmPassword: "outra-senha" })).body.error, "ERR_INVALID_RESET_TOKEN");
    assert.equal((await call("/users/checkToken", { email: AGENT, token: code })).status, 400);

    // The old session is revoked (tokenVersion bumped); the new password works, the old one not.
    assert.equal((await agent.post("/auth/refresh_token")).status, 401);
    assert.equal((await anon.post("/auth/login", { email: AGENT, password: "demo1234" })).status, 401);
    const fresh = await server.login(AGENT, "nova-senha");
    assert.equal((await fresh.get("/auth/me")).body.email, AGENT);

    const stored = await passwordResets.in(server.deps.system, PLATFORM).list();
    assert.deepEqual(stored, [], "a used token leaves nothing behind");
    for (const body of seen) {
      assert.ok(!body.includes(code) && !body.includes(code.replace("-", "")), `token leaked in ${body}`);
    }
  });
});

Deno.test("password reset keeps only the token's hash, and a newer request replaces the older token", async () => {
  await withMail(async (server, mailbox) => {
    const anon = server.client();
    await anon.post("/users/sendemail", { email: AGENT });
    const first = resetCodeIn(await mailbox.next());
    const [record] = await passwordResets.in(server.deps.system, PLATFORM).list();
    assert.match(record.tokenHash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(record).includes(first.replace("-", "")));
    assert.ok(record.expiresAt - record.createdAt === 30 * 60_000);

    await anon.post("/users/sendemail", { email: AGENT });
    const second = resetCodeIn(await mailbox.next());
    assert.notEqual(first, second);
    assert.equal((await anon.post("/users/checkToken", { email: AGENT, token: first })).status, 400);
    assert.equal((await anon.post("/users/checkToken", { email: AGENT, token: second })).status, 200);
  });
});

Deno.test("password reset refuses a token older than 30 minutes", async () => {
  await withMail(async (server, mailbox) => {
    const anon = server.client();
    await anon.post("/users/sendemail", { email: AGENT });
    const code = resetCodeIn(await mailbox.next());
    // Age the stored reset past its expiry instead of sleeping 30 minutes.
    const resets = passwordResets.in(server.deps.system, PLATFORM);
    await resets.transact((view) => {
      const record = [...view.records.values()][0];
      return { put: [{ ...record, expiresAt: view.now - 1 }], reply: null };
    });
    assert.equal((await anon.post("/users/checkToken", { email: AGENT, token: code })).body.error, "ERR_INVALID_RESET_TOKEN");
    const refused = await anon.post("/users/updatePassword", { email: AGENT, token: code, password: "nova-senha", confirmPassword: "nova-senha" });
    assert.equal(refused.body.error, "ERR_INVALID_RESET_TOKEN");
    assert.deepEqual(await resets.list(), [], "the expired reset is dropped when it is tried");
    assert.equal((await anon.post("/auth/login", { email: AGENT, password: "demo1234" })).status, 200);
  });
});

Deno.test("POST /users/sendemail answers a known and an unknown e-mail alike, status and body, and counts both against the address's limit", async () => {
  await withMail(async (server, mailbox) => {
    const anon = server.client();
    const known = await anon.post("/users/sendemail", { email: AGENT });
    const unknown = await anon.post("/users/sendemail", { email: "ninguem@nada.local" });
    assert.equal(unknown.status, known.status);
    assert.equal(known.status, 200);
    assert.deepEqual(Object.keys(unknown.body).sort(), Object.keys(known.body).sort());
    assert.equal(unknown.body.sent, known.body.sent);
    // The expiry is the request's time plus the token's life for both: within the test's few ms.
    assert.ok(Math.abs(Date.parse(unknown.body.expiresAt) - Date.parse(known.body.expiresAt)) < 5_000);
    assert.equal(unknown.headers.get("content-type"), known.headers.get("content-type"));
    // Only the known one gets a mail; nothing is stored for the unknown one.
    assert.equal(((await mailbox.next()).to as { text: string }).text, AGENT);
    assert.equal((await passwordResets.in(server.deps.system, PLATFORM).list()).length, 1, "a token for the known e-mail only");

    const invalid = await anon.post("/users/sendemail", { email: "x" });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.fields.email, "Invalid email");
    for (let i = 0; i < 7; i++) assert.equal((await anon.post("/users/sendemail", { email: `n${i}@nada.local` })).status, 200);
    // Ten requests from this address in the window: the eleventh is refused, known or not.
    for (const email of [AGENT, "outro@nada.local"]) {
      const limited = await anon.post("/users/sendemail", { email });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error, "ERR_TOO_MANY_ATTEMPTS");
      assert.ok(Number(limited.headers.get("retry-after")) > 0);
    }
    assert.equal(mailbox.received.length, 1);
    // Another address is not held back.
    assert.equal((await postFrom(server, "203.0.113.9", "/users/sendemail", { email: AGENT })).status, 200);
  });
});

Deno.test("password reset limits mails per e-mail and wrong tokens per e-mail, from any address", async () => {
  await withMail(async (server, mailbox) => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await postFrom(server, `198.51.100.${i}`, "/users/sendemail", { email: AGENT })).status, 200);
    }
    const flood = await postFrom(server, "198.51.100.9", "/users/sendemail", { email: AGENT });
    assert.equal(flood.status, 429, "a fourth mail to one inbox in the window is refused");
    // The same for an address without an account: the limit says nothing about who exists.
    for (let i = 0; i < 3; i++) {
      assert.equal((await postFrom(server, `198.51.101.${i}`, "/users/sendemail", { email: "ninguem@nada.local" })).status, 200);
    }
    assert.equal((await postFrom(server, "198.51.101.9", "/users/sendemail", { email: "ninguem@nada.local" })).status, 429);
    for (let i = 0; i < 3; i++) await mailbox.next();
    const code = resetCodeIn(mailbox.received[2]);

    for (let i = 0; i < 10; i++) {
      const guess = await postFrom(server, `192.0.2.${i}`, "/users/checkToken", { email: AGENT, token: `WRONG${i}` });
      assert.equal(guess.status, 400);
    }
    // Ten wrong guesses for this e-mail: even the right code waits for the window now.
    const blocked = await postFrom(server, "192.0.2.200", "/users/updatePassword", {
      email: AGENT,
      token: code,
      password: "nova-senha",
      confirmPassword: "nova-senha",
    });
    assert.equal(blocked.status, 429);
    assert.equal((await server.client().post("/auth/login", { email: AGENT, password: "demo1234" })).status, 200);
  });
});

Deno.test("password reset without an e-mail provider answers 503 ERR_EMAIL_NOT_CONFIGURED, known e-mail or not, and keeps no token", async () => {
  await withServer(async (server) => {
    const result = await server.client().post("/users/sendemail", { email: AGENT });
    assert.equal(result.status, 503);
    assert.equal(result.body.error, "ERR_EMAIL_NOT_CONFIGURED");
    assert.deepEqual((await server.client().post("/users/sendemail", { email: "ninguem@nada.local" })).body, result.body);
    assert.deepEqual(await passwordResets.in(server.deps.system, PLATFORM).list(), []);
  }, { smtp: undefined });
});

Deno.test("password reset sends through SendGrid's v3 API when only the SendGrid key is set", async () => {
  const requests: { auth: string | null; body: Record<string, unknown> }[] = [];
  const fake = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    if (new URL(request.url).pathname !== "/v3/mail/send") return new Response("not found", { status: 404 });
    requests.push({ auth: request.headers.get("authorization"), body: await request.json() });
    return new Response(null, { status: 202 });
  });
  const previous = Deno.env.get("SENDGRID_API_URL");
  Deno.env.set("SENDGRID_API_URL", `http://127.0.0.1:${fake.addr.port}`);
  try {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      await owner.put("/settings/sendgridapi", { value: "SG.test-key" });
      await owner.put("/settings/emailsender", { value: "nao-responda@balcao.local" });
      const sent = await server.client().post("/users/sendemail", { email: AGENT });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      await eventually(() => requests.length === 1 || undefined, 5_000, "the mail posted to SendGrid");
      assert.equal(requests[0].auth, "Bearer SG.test-key");
      const body = requests[0].body as { personalizations: { to: { email: string }[] }[]; from: { email: string }; content: { value: string }[] };
      assert.equal(body.personalizations[0].to[0].email, AGENT);
      assert.equal(body.from.email, "nao-responda@balcao.local");
      const code = body.content[0].value.match(/[A-Z0-9]{4}-[A-Z0-9]{4}/)![0];
      assert.equal((await server.client().post("/users/checkToken", { email: AGENT, token: code })).status, 200);

      // SendGrid refusing the mail is the operator's to see in the log: the answer cannot say
      // it, since an unknown e-mail (no mail sent at all) must be answered the same.
      await owner.put("/settings/sendgridapi", { value: "SG.other" });
      await fake.shutdown();
      const failed = await server.client().post("/users/sendemail", { email: AGENT });
      assert.deepEqual([failed.status, Object.keys(failed.body).sort()], [200, ["expiresAt", "sent"]]);
    }, { smtp: undefined });
  } finally {
    if (previous === undefined) Deno.env.delete("SENDGRID_API_URL");
    else Deno.env.set("SENDGRID_API_URL", previous);
    await fake.shutdown().catch(() => {});
  }
});
