import assert from "node:assert/strict";
import { BrCodeError, crc16, crcValid, decodeBrCode, dynamicBrCode, parseTlv, pixTxid, staticBrCode } from "./brcode.ts";

/** The example of BACEN's "Manual de Padrões para Iniciação do Pix" (static, no amount), CRC 1D3D. */
const MANUAL = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

/** A dynamic code published by a PSP (Voluti), quoted in a public QR recogniser's tests, CRC 575A. */
const PSP_DYNAMIC = "00020126850014br.gov.bcb.pix2563pix.voluti.com.br/qr/v3/at/c75d8412-3935-49d1-9d80-6435716962665204000053039865802BR5925SMARTPAY_SERVICOS_DIGITAI6013FLORIANOPOLIS62070503***6304575A";

/** A Mercado Pago (Argentina) EMV code: not Pix, but the same TLV and CRC16, CRC 85DD. */
const MP_EMV = "00020101021143530016com.mercadolibre0129https://mpago.la/pos/8431598450150011307086329925204970053030325802AR5917Universo Aventura6004CABA630485DD";

Deno.test("crc16() is CCITT-FALSE: the check value of '123456789' is 29B1", () => {
  assert.equal(crc16("123456789"), "29B1");
});

Deno.test("staticBrCode() reproduces the BACEN manual's example byte for byte", () => {
  const built = staticBrCode({
    key: "123e4567-e12b-12d1-a456-426655440000",
    merchantName: "Fulano de Tal",
    merchantCity: "BRASILIA",
  });
  assert.equal(built, MANUAL);
});

Deno.test("crcValid() accepts published payloads whose CRC we did not compute", () => {
  for (const payload of [MANUAL, PSP_DYNAMIC, MP_EMV]) assert.ok(crcValid(payload), payload);
});

Deno.test("decodeBrCode() reads the manual's and a PSP's payloads", async (t) => {
  await t.step("static: key, name, city, txid ***", () => {
    const d = decodeBrCode(MANUAL);
    assert.equal(d.key, "123e4567-e12b-12d1-a456-426655440000");
    assert.equal(d.location, null);
    assert.equal(d.merchantName, "Fulano de Tal");
    assert.equal(d.merchantCity, "BRASILIA");
    assert.equal(d.txid, "***");
    assert.equal(d.amount, null);
    assert.equal(d.crc, "1D3D");
  });
  await t.step("dynamic: the location URL", () => {
    const d = decodeBrCode(PSP_DYNAMIC);
    assert.equal(d.location, "pix.voluti.com.br/qr/v3/at/c75d8412-3935-49d1-9d80-643571696266");
    assert.equal(d.key, null);
    assert.equal(d.merchantCity, "FLORIANOPOLIS");
  });
  await t.step("an EMV code of another arrangement is not Pix", () => {
    assert.throws(() => decodeBrCode(MP_EMV), BrCodeError);
  });
});

Deno.test("staticBrCode() round trip: amount with 2 decimals, accents stripped, limits applied", () => {
  const payload = staticBrCode({
    key: "financeiro@balcao.com.br",
    merchantName: "Balcão Atendimento Multicanal Ltda",
    merchantCity: "São José dos Campos",
    amount: 149.9,
    txid: "inv-42/company-7",
    description: "Fatura nº 42",
  });
  assert.ok(payload.includes("5406149.90"), payload);
  const d = decodeBrCode(payload);
  assert.equal(d.key, "financeiro@balcao.com.br");
  assert.equal(d.amount, 149.9);
  assert.equal(d.merchantName, "Balcao Atendimento Multic");
  assert.equal(d.merchantName.length, 25);
  assert.equal(d.merchantCity, "Sao Jose dos Ca");
  assert.equal(d.txid, "inv42company7");
  assert.equal(d.description, "Fatura n 42");
  assert.equal(d.pointOfInitiation, null);
});

Deno.test("dynamicBrCode() round trip: point of initiation 12, location without scheme", () => {
  const payload = dynamicBrCode({
    location: "https://pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25",
    merchantName: "Balcão",
    merchantCity: "Curitiba",
    amount: 1000,
  });
  const d = decodeBrCode(payload);
  assert.equal(d.pointOfInitiation, "12");
  assert.equal(d.location, "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25");
  assert.equal(d.amount, 1000);
  assert.equal(d.txid, "***");
  assert.ok(payload.startsWith("000201010212"));
});

Deno.test("decodeBrCode() refuses a tampered payload (CRC) and a malformed one (TLV)", () => {
  const tampered = MANUAL.replace("Fulano de Tal", "Fulano de Tel");
  assert.equal(crcValid(tampered), false);
  assert.throws(() => decodeBrCode(tampered), /CRC/);
  const amountChanged = staticBrCode({ key: "k@x.com", merchantName: "A", merchantCity: "B", amount: 10 }).replace("540510.00", "540590.00");
  assert.throws(() => decodeBrCode(amountChanged), /CRC/);
  assert.throws(() => parseTlv("0002010199"), BrCodeError);
});

Deno.test("pixTxid() keeps 25 letters and digits, *** when empty", () => {
  assert.equal(pixTxid("a-b_c"), "abc");
  assert.equal(pixTxid("x".repeat(40)).length, 25);
  assert.equal(pixTxid(""), "***");
  assert.equal(pixTxid(undefined), "***");
});
