/**
 * Efí's certificate arrives as a .p12 (PKCS#12, no password, as Efí issues it), and Deno's
 * `Deno.createHttpClient({ cert, key })` wants PEM. node-forge reads it in-process, so the
 * server needs no `openssl` binary: legacy files (RC2-40 / 3DES, SHA-1 MAC, which OpenSSL 3
 * only opens with `-legacy`) and modern ones (AES-CBC with PBKDF2, SHA-256 MAC) alike.
 */
import forge from "node-forge";

/** The PEM certificate chain and private key of a .p12 file. */
export interface PemPair {
  cert: string;
  key: string;
}

/** Bytes as the binary string node-forge works on, in chunks (spread of a large array overflows). */
function binaryString(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

/**
 * The decoded PFX, or null when it is not PKCS#12 or the password does not open it. A file
 * "without password" is sealed either with the empty password (two zero bytes, as
 * `openssl -passout pass:` does) or with none at all, so both are tried for "".
 */
function openPfx(der: string, password: string): forge.pkcs12.Pkcs12Pfx | null {
  for (const attempt of password === "" ? ["", undefined] : [password]) {
    try {
      return forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), true, attempt);
    } catch {
      // not ASN.1, not PKCS#12, wrong password, or an algorithm node-forge lacks
    }
  }
  return null;
}

/** node-forge writes PEM with CRLF; plain LF as openssl wrote it. */
const lf = (pem: string) => pem.replace(/\r\n/g, "\n");

/** PEM of a bag's content: node-forge parses RSA only and keeps other kinds (EC) as raw ASN.1. */
function certPem(bag: forge.pkcs12.Bag): string {
  return lf(bag.cert ? forge.pki.certificateToPem(bag.cert) : forge.pem.encode({ type: "CERTIFICATE", body: forge.asn1.toDer(bag.asn1).getBytes() }));
}

/** The key as PKCS#8 ("PRIVATE KEY"), what `openssl pkcs12 -nodes` printed before. */
function keyPem(bag: forge.pkcs12.Bag): string {
  const info = bag.key ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)) : bag.asn1;
  return lf(forge.pki.privateKeyInfoToPem(info));
}

/** The key's own certificate first (same localKeyId), then the rest of the chain: TLS sends the leaf first. */
function leafFirst(certs: forge.pkcs12.Bag[], key: forge.pkcs12.Bag): forge.pkcs12.Bag[] {
  const id = key.attributes?.localKeyId?.[0];
  const own = (bag: forge.pkcs12.Bag) => id !== undefined && bag.attributes?.localKeyId?.[0] === id;
  return [...certs.filter(own), ...certs.filter((bag) => !own(bag))];
}

/** Converts the .p12 at `path` to PEM; throws when it cannot be read as a certificate with its key. */
export async function p12ToPem(path: string, password = ""): Promise<PemPair> {
  const pfx = openPfx(binaryString(await Deno.readFile(path)), password);
  if (pfx === null) throw new Error(`Cannot read the certificate ${path} as PKCS#12`);
  const certs = pfx.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const keys = [forge.pki.oids.pkcs8ShroudedKeyBag, forge.pki.oids.keyBag]
    .flatMap((type) => pfx.getBags({ bagType: type })[type] ?? []);
  if (certs.length === 0 || keys.length === 0) throw new Error(`The certificate ${path} holds no certificate and key pair`);
  return { cert: leafFirst(certs, keys[0]).map(certPem).join(""), key: keyPem(keys[0]) };
}
