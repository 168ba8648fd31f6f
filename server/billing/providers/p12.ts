/**
 * Efí's certificate arrives as a .p12 (PKCS#12, no password, as Efí issues it), and Deno's
 * `Deno.createHttpClient({ cert, key })` wants PEM. node-forge is not installed here, so the
 * conversion runs the system's `openssl pkcs12` (retried with `-legacy` for files sealed with
 * RC2/3DES, which OpenSSL 3 refuses by default). TODO(#21): node-forge would drop the
 * dependency on the openssl binary; asked for in the billing report.
 */

/** The PEM certificate chain and private key of a .p12 file. */
export interface PemPair {
  cert: string;
  key: string;
}

async function runOpenssl(path: string, legacy: boolean, password: string): Promise<string | null> {
  const args = ["pkcs12", "-in", path, "-nodes", "-passin", `pass:${password}`, ...(legacy ? ["-legacy"] : [])];
  try {
    const out = await new Deno.Command("openssl", { args, stdout: "piped", stderr: "null", stdin: "null" }).output();
    return out.success ? new TextDecoder().decode(out.stdout) : null;
  } catch {
    return null; // no openssl binary
  }
}

/** PEM blocks of `label` in `text`. */
function blocks(text: string, label: RegExp): string[] {
  const found = text.match(/-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  return found.filter((b) => label.test(b.slice(11, b.indexOf("-----", 11))));
}

/** Converts the .p12 at `path` to PEM; throws when it cannot be read as a certificate with its key. */
export async function p12ToPem(path: string, password = ""): Promise<PemPair> {
  const text = await runOpenssl(path, false, password) ?? await runOpenssl(path, true, password);
  if (text === null) throw new Error(`Cannot read the certificate ${path} as PKCS#12`);
  const certs = blocks(text, /^CERTIFICATE$/);
  const keys = blocks(text, /PRIVATE KEY$/);
  if (certs.length === 0 || keys.length === 0) throw new Error(`The certificate ${path} holds no certificate and key pair`);
  return { cert: certs.join("\n") + "\n", key: keys[0] + "\n" };
}
