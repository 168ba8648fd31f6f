/**
 * The checkout's payment screen (spec 001 §2.21): TOTAL in BRL, the Pix QR code with its
 * "copia e cola" text and a copy button whose label reads 'Copiado' for 1 s, one button per
 * card provider whose URL the server gave (each opens a new tab), and a waiting line until
 * the payment event arrives.
 */
import { useEffect, useRef, useState } from "react";
import { Check, Copy, CreditCard, ExternalLink } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { formatPlanPrice } from "../subscription/summary.ts";

/** POST /subscription's answer (contract of #21). */
export interface SubscriptionResult {
  pix: { qrcode: { qrcode: string; imagemQrcode: string } } | null;
  stripeURL: string | null;
  asaasURL: string | null;
  mercadopagoURL: string | null;
  /** The demo's payment simulator (server/billing/providers/simulator.ts), null elsewhere. */
  simulatorURL?: string | null;
  valorext: number;
  invoiceId: number;
}

/** How long the copy button says 'Copiado'. */
export const COPIED_MS = 1000;

const PROVIDERS = [
  { key: "stripeURL", label: "checkout.payStripe" },
  { key: "asaasURL", label: "checkout.payAsaas" },
  { key: "mercadopagoURL", label: "checkout.payMercadoPago" },
  { key: "simulatorURL", label: "checkout.paySimulator" },
] as const;

/** The payment screen of one subscription result. */
export function PaymentScreen({ result }: { result: SubscriptionResult }) {
  const links = PROVIDERS.filter((p) => result[p.key]);
  return (
    <div className="checkout-payment" data-testid="checkout-payment">
      <p className="checkout-total">
        <span>{t("checkout.total")}</span>
        <strong data-testid="checkout-total">{formatPlanPrice(result.valorext)}</strong>
      </p>
      {result.pix && <PixBlock code={result.pix.qrcode.qrcode} image={result.pix.qrcode.imagemQrcode} />}
      {links.length > 0 && (
        <section className="checkout-cards" aria-label={t("checkout.cardTitle")}>
          <h3>{t("checkout.cardTitle")}</h3>
          <div className="checkout-card-buttons">
            {links.map((p) => (
              <a key={p.key} className="btn" href={result[p.key]!} target="_blank" rel="noopener noreferrer" data-testid={`pay-${p.key}`}>
                <CreditCard size={16} aria-hidden="true" /> {t(p.label)} <ExternalLink size={14} aria-hidden="true" />
              </a>
            ))}
          </div>
        </section>
      )}
      {!result.pix && links.length === 0 && <p className="field-hint" role="alert">{t("checkout.noMethod")}</p>}
      <p className="checkout-waiting" role="status">
        <span className="checkout-spinner" aria-hidden="true" /> {t("checkout.waiting")}
      </p>
    </div>
  );
}

/** The QR image, the code and its copy button. */
function PixBlock({ code, image }: { code: string; image: string }) {
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      // No clipboard permission (plain http, an embedded browser): copy the selected text.
      field.current?.select();
      document.execCommand("copy");
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }
  return (
    <section className="checkout-pix" aria-label={t("checkout.pixTitle")}>
      <h3>{t("checkout.pixTitle")}</h3>
      <img src={image} alt={t("checkout.pixAlt")} className="checkout-qr" width={220} height={220} data-testid="pix-qr" />
      <p className="field-hint">{t("checkout.pixHint")}</p>
      <label className="field">
        <span>{t("checkout.pixCode")}</span>
        <textarea ref={field} className="input checkout-pix-code" readOnly rows={3} value={code} data-testid="pix-code" />
      </label>
      <button type="button" className="btn btn-primary" onClick={copy} data-testid="pix-copy" aria-live="polite">
        {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />} {t(copied ? "checkout.copied" : "checkout.copy")}
      </button>
    </section>
  );
}
