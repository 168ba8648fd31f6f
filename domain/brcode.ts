/**
 * Pix BR Code ("copia e cola"): the EMV QRCPS merchant-presented payload of BACEN's "Manual de
 * Padrões para Iniciação do Pix". A payload is a run of TLV fields (2-digit id, 2-digit length,
 * value) closed by field 63, the CRC16-CCITT-FALSE of everything before it including "6304".
 *
 * Static codes carry the receiver's key (26.01) and a txid of our own (62.05); dynamic codes
 * carry the PSP's location URL (26.25, no scheme) and point of initiation "12" (single use);
 * their txid is the PSP's, so 62.05 is "***" as the manual shows.
 */

/** The GUI of the Pix arrangement inside the merchant account template. */
export const PIX_GUI = "br.gov.bcb.pix";

/** Field limits of the manual (name 25, city 15, txid 25 alphanumerics, amount 13). */
export const BRCODE_LIMITS = { name: 25, city: 15, txid: 25, amount: 13, field: 99 } as const;

/** What a static code needs (the receiver's key, its name and city; amount in BRL). */
export interface StaticPix {
  key: string;
  merchantName: string;
  merchantCity: string;
  /** BRL; omitted (payer types it) when undefined or 0. */
  amount?: number;
  /** Our reference, up to 25 letters/digits; "***" when none. */
  txid?: string;
  /** Free text shown to the payer (26.02). */
  description?: string;
}

/** What a dynamic code needs: the PSP's location (without https://) instead of the key. */
export interface DynamicPix {
  location: string;
  merchantName: string;
  merchantCity: string;
  amount?: number;
}

/** One TLV field. */
function tlv(id: string, value: string): string {
  if (value.length > BRCODE_LIMITS.field) throw new RangeError(`BR Code field ${id} is ${value.length} characters, over 99`);
  return id + String(value.length).padStart(2, "0") + value;
}

/** Printable ASCII only: accents stripped, anything else dropped (payers' apps choke on the rest). */
function ascii(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").replace(/[^\x20-\x7e]/g, "").trim();
}

/** The txid the manual allows: letters and digits, at most 25; "***" when nothing is left. */
export function pixTxid(reference: string | undefined): string {
  const clean = (reference ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, BRCODE_LIMITS.txid);
  return clean === "" ? "***" : clean;
}

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection) as 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function amountField(amount: number | undefined): string {
  if (amount === undefined || amount === 0) return "";
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`BR Code amount must be a positive number, got ${amount}`);
  return tlv("54", amount.toFixed(2));
}

/** Fields 52..62 shared by both forms, then the CRC. */
function close(head: string, p: { merchantName: string; merchantCity: string; amount?: number }, txid: string): string {
  const body = head +
    tlv("52", "0000") +
    tlv("53", "986") +
    amountField(p.amount) +
    tlv("58", "BR") +
    tlv("59", ascii(p.merchantName).slice(0, BRCODE_LIMITS.name) || "N") +
    tlv("60", ascii(p.merchantCity).slice(0, BRCODE_LIMITS.city) || "BRASILIA") +
    tlv("62", tlv("05", txid)) +
    "6304";
  return body + crc16(body);
}

/** A static Pix BR Code for `key`. */
export function staticBrCode(p: StaticPix): string {
  const description = p.description ? ascii(p.description) : "";
  const account = tlv("00", PIX_GUI) + tlv("01", p.key.trim()) + (description ? tlv("02", description) : "");
  return close(tlv("00", "01") + tlv("26", account), p, pixTxid(p.txid));
}

/** A dynamic Pix BR Code pointing at the PSP's charge location (single use). */
export function dynamicBrCode(p: DynamicPix): string {
  const location = p.location.replace(/^https?:\/\//, "");
  const account = tlv("00", PIX_GUI) + tlv("25", location);
  return close(tlv("00", "01") + tlv("01", "12") + tlv("26", account), p, "***");
}

/** TLV fields of `text` in order; throws on a length that runs past the end. */
export function parseTlv(text: string): Array<{ id: string; value: string }> {
  const fields: Array<{ id: string; value: string }> = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const len = Number(text.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(at + 2, at + 4)) || at + 4 + len > text.length) {
      throw new BrCodeError(`Malformed TLV at position ${at}`);
    }
    fields.push({ id, value: text.slice(at + 4, at + 4 + len) });
    at += 4 + len;
  }
  return fields;
}

/** A payload that is not a valid BR Code. */
export class BrCodeError extends Error {
  override name = "BrCodeError";
}

/** Whether `payload` ends in a field 63 holding the CRC of what precedes it. */
export function crcValid(payload: string): boolean {
  const at = payload.length - 8;
  if (at < 0 || payload.slice(at, at + 4) !== "6304") return false;
  return crc16(payload.slice(0, at + 4)) === payload.slice(at + 4).toUpperCase();
}

/** A decoded Pix BR Code. */
export interface DecodedPix {
  pointOfInitiation: "11" | "12" | null;
  /** The receiver's key (static) or null. */
  key: string | null;
  /** The PSP's location (dynamic) or null. */
  location: string | null;
  description: string | null;
  merchantCategory: string;
  currency: string;
  amount: number | null;
  country: string;
  merchantName: string;
  merchantCity: string;
  txid: string | null;
  crc: string;
}

/** Decodes and checks a Pix BR Code: TLV shape, CRC, Pix GUI, BRL and BR; throws BrCodeError otherwise. */
export function decodeBrCode(payload: string): DecodedPix {
  if (!crcValid(payload)) throw new BrCodeError("CRC does not match the payload");
  const top = new Map(parseTlv(payload).map((f) => [f.id, f.value]));
  if (top.get("00") !== "01") throw new BrCodeError("Payload format indicator is not 01");
  let account: Map<string, string> | undefined;
  for (let id = 26; id <= 51; id++) {
    const value = top.get(String(id));
    if (!value) continue;
    const inner = new Map(parseTlv(value).map((f) => [f.id, f.value]));
    if (inner.get("00")?.toLowerCase() === PIX_GUI) account = inner;
  }
  if (!account) throw new BrCodeError("No merchant account with the Pix GUI");
  const key = account.get("01") ?? null;
  const location = account.get("25") ?? null;
  if ((key === null) === (location === null)) throw new BrCodeError("A Pix account holds either a key or a location");
  const extra = top.has("62") ? new Map(parseTlv(top.get("62")!).map((f) => [f.id, f.value])) : new Map<string, string>();
  const required = (id: string, what: string) => {
    const v = top.get(id);
    if (v === undefined) throw new BrCodeError(`Missing field ${id} (${what})`);
    return v;
  };
  const currency = required("53", "currency");
  const country = required("58", "country");
  if (currency !== "986") throw new BrCodeError(`Currency ${currency} is not BRL (986)`);
  if (country !== "BR") throw new BrCodeError(`Country ${country} is not BR`);
  const rawAmount = top.get("54");
  if (rawAmount !== undefined && !/^\d{1,10}(\.\d{1,2})?$/.test(rawAmount)) throw new BrCodeError(`Bad amount ${rawAmount}`);
  const poi = top.get("01");
  return {
    pointOfInitiation: poi === "11" || poi === "12" ? poi : null,
    key,
    location,
    description: account.get("02") ?? null,
    merchantCategory: required("52", "merchant category"),
    currency,
    amount: rawAmount === undefined ? null : Number(rawAmount),
    country,
    merchantName: required("59", "merchant name"),
    merchantCity: required("60", "merchant city"),
    txid: extra.get("05") ?? null,
    crc: top.get("63")!,
  };
}
