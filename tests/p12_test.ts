/**
 * p12ToPem (server/billing/providers/p12.ts) reads Efí's .p12 with node-forge, no openssl
 * binary: legacy (3DES / RC2-40) and modern (AES, PBKDF2) files, password-less or not, give
 * the same certificate and key that went in; a garbled file or a wrong password is refused
 * with the message the billing log shows. Files made by `openssl pkcs12 -export` are checked
 * too when the machine happens to have openssl (CI may not: those steps are skipped there).
 */
import assert from "node:assert/strict";
import { createPrivateKey } from "node:crypto";
import { p12ToPem } from "../server/billing/providers/p12.ts";
import { selfSignedP12 } from "./helpers/fake_payments.ts";

/** The key in one canonical form (PKCS#8 PEM), whatever encoding each side chose. */
const canonicalKey = (pem: string) => createPrivateKey(pem).export({ type: "pkcs8", format: "pem" }).toString();

async function hasOpenssl(): Promise<boolean> {
  try {
    return (await new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false; // no binary
  }
}

async function openssl(args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, stdout: "null", stderr: "piped", stdin: "null" }).output();
  if (!out.success) throw new Error(`openssl ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** PEM certificates of a text, in order. */
const certsOf = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];

Deno.test("p12ToPem: node-forge reads .p12 files of every sealing, refuses garbled ones", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-p12-test-" });
  try {
    const cases = [
      { name: "legacy 3DES, empty password (as Efí issues them)", options: { algorithm: "3des" as const } },
      { name: "modern AES-256 (PBES2), empty password", options: { algorithm: "aes256" as const } },
      { name: "no password at all", options: { password: null } },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        const made = await selfSignedP12(c.options);
        await Deno.writeFile(`${dir}/cert.p12`, made.p12);
        const pem = await p12ToPem(`${dir}/cert.p12`);
        assert.equal(pem.cert, made.certPem);
        assert.match(pem.key, /^-----BEGIN PRIVATE KEY-----\n/);
        assert.equal(canonicalKey(pem.key), canonicalKey(made.keyPem));
        assert.doesNotThrow(() => Deno.createHttpClient({ cert: pem.cert, key: pem.key }).close(), "Deno takes the PEM pair");
      });
    }

    await t.step("a password: opened with it, refused without it", async () => {
      const made = await selfSignedP12({ algorithm: "aes256", password: "s3gr3do" });
      await Deno.writeFile(`${dir}/locked.p12`, made.p12);
      assert.equal((await p12ToPem(`${dir}/locked.p12`, "s3gr3do")).cert, made.certPem);
      await assert.rejects(p12ToPem(`${dir}/locked.p12`), { message: `Cannot read the certificate ${dir}/locked.p12 as PKCS#12` });
    });

    await t.step("garbled files get the clear refusal", async () => {
      const good = (await selfSignedP12()).p12;
      const flipped = good.slice();
      flipped[Math.floor(flipped.length / 2)] ^= 0xff;
      const garbled: [string, Uint8Array][] = [
        ["text", new TextEncoder().encode("not a certificate")],
        ["empty", new Uint8Array()],
        ["truncated", good.slice(0, good.length / 2)],
        ["one byte flipped", flipped],
        ["a PDF", new TextEncoder().encode("%PDF-1.4\n%%EOF\n")],
      ];
      for (const [name, bytes] of garbled) {
        await Deno.writeFile(`${dir}/bad.p12`, bytes);
        await assert.rejects(p12ToPem(`${dir}/bad.p12`), { message: `Cannot read the certificate ${dir}/bad.p12 as PKCS#12` }, name);
      }
      await assert.rejects(p12ToPem(`${dir}/missing.p12`), Deno.errors.NotFound);
    });

    const withOpenssl = await hasOpenssl();
    for (const [name, extra] of [["openssl's default (AES-256-CBC, PBKDF2 SHA-256, SHA-256 MAC)", []], ["openssl -legacy (RC2-40 certificates, 3DES key, SHA-1 MAC)", ["-legacy"]]] as const) {
      await t.step({
        name: `${name}, password-less, with a second certificate in the chain`,
        ignore: !withOpenssl,
        fn: async () => {
          const subj = (cn: string) => ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${cn}`];
          await openssl([...subj("balcao-leaf"), "-keyout", `${dir}/key.pem`, "-out", `${dir}/leaf.pem`]);
          await openssl([...subj("balcao-ca"), "-keyout", `${dir}/ca.key`, "-out", `${dir}/ca.pem`]);
          const out = `${dir}/openssl.p12`;
          await openssl(["pkcs12", "-export", ...extra, "-inkey", `${dir}/key.pem`, "-in", `${dir}/leaf.pem`, "-certfile", `${dir}/ca.pem`, "-passout", "pass:", "-out", out]);
          const pem = await p12ToPem(out);
          const expected = [await Deno.readTextFile(`${dir}/leaf.pem`), await Deno.readTextFile(`${dir}/ca.pem`)].map((p) => p.trim());
          assert.deepEqual(certsOf(pem.cert), expected, "the key's own certificate first, then the chain");
          assert.equal(canonicalKey(pem.key), canonicalKey(await Deno.readTextFile(`${dir}/key.pem`)));
        },
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
