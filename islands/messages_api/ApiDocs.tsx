/**
 * The API page's documentation (spec 001 §2.17, §7): the endpoint, authentication, fields,
 * curl examples with this server's own address, idempotency and rate limit, and the error
 * codes. The address is the page's origin, known only in the browser: the server renders the
 * path alone and the examples gain the host once hydrated.
 */
import { useEffect, useState } from "react";
import { t } from "../lib/i18n.ts";
import type { LocaleKey } from "../lib/i18n.ts";
import { SEND_PATH } from "./send.ts";

const FIELDS: ReadonlyArray<[string, LocaleKey]> = [
  ["number", "messagesApi.field.number"],
  ["body", "messagesApi.field.body"],
  ["openTicket", "messagesApi.field.openTicket"],
  ["queueId", "messagesApi.field.queueId"],
  ["medias", "messagesApi.field.medias"],
];

const ERRORS: ReadonlyArray<[number | string, string, LocaleKey]> = [
  [401, "ERR_SESSION_EXPIRED", "messagesApi.err.token"],
  [402, "ERR_SUBSCRIPTION_EXPIRED", "messagesApi.err.subscription"],
  [403, "ERR_PLAN_FEATURE", "messagesApi.err.plan"],
  [400, "ERR_VALIDATION", "messagesApi.err.validation"],
  [400, "ERR_WAPP_NOT_INITIALIZED", "messagesApi.err.connection"],
  [400, "ERR_WAPP_INVALID_CONTACT", "messagesApi.err.number"],
  [404, "ERR_NO_QUEUE_FOUND", "messagesApi.err.queue"],
  ["409 / 422", "ERR_CONFLICT", "messagesApi.err.idempotency"],
  [429, "ERR_TOO_MANY_ATTEMPTS", "messagesApi.err.rate"],
];

/** The two curl examples for `url`. */
function examples(url: string): { text: string; media: string } {
  return {
    text: `curl -X POST '${url}' \\
  -H 'Authorization: Bearer SEU_TOKEN' \\
  -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: pedido-123' \\
  -d '{"number": "5511999999999", "body": "Olá!", "openTicket": 1, "queueId": 1}'`,
    media: `curl -X POST '${url}' \\
  -H 'Authorization: Bearer SEU_TOKEN' \\
  -F 'number=5511999999999' -F 'openTicket=0' \\
  -F 'medias=@foto.jpg' -F 'caption=Nossa loja' \\
  -F 'medias=@catalogo.pdf' -F 'caption=Catálogo'`,
  };
}

/** The documentation. */
export function ApiDocs() {
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(location.origin), []);
  const url = `${origin}${SEND_PATH}`;
  const { text, media } = examples(url);
  return (
    <section className="api-card api-docs" aria-labelledby="api-docs-title" data-testid="api-docs">
      <h2 id="api-docs-title">{t("messagesApi.docTitle")}</h2>
      <p>{t("messagesApi.intro")}</p>
      <p className="api-endpoint"><code data-testid="api-endpoint">POST {url}</code></p>
      <p>{t("messagesApi.auth")}</p>
      <h3>{t("messagesApi.fieldsTitle")}</h3>
      <div className="api-table-frame">
        <table className="api-table">
          <thead>
            <tr><th>{t("messagesApi.colField")}</th><th>{t("messagesApi.colDescription")}</th></tr>
          </thead>
          <tbody>
            {FIELDS.map(([name, key]) => <tr key={name}><td><code>{name}</code></td><td>{t(key)}</td></tr>)}
          </tbody>
        </table>
      </div>
      <h3>{t("messagesApi.textExample")}</h3>
      {/* Focusable: a keyboard user scrolls a long example sideways (WCAG 2.1.1). */}
      <pre className="api-code" tabIndex={0} data-testid="api-curl-text"><code>{text}</code></pre>
      <h3>{t("messagesApi.mediaExample")}</h3>
      <pre className="api-code" tabIndex={0}><code>{media}</code></pre>
      <p>{t("messagesApi.success")}</p>
      <h3>{t("messagesApi.headersTitle")}</h3>
      <ul className="api-notes">
        <li>{t("messagesApi.idempotency")}</li>
        <li>{t("messagesApi.rateLimit")}</li>
      </ul>
      <h3>{t("messagesApi.errorsTitle")}</h3>
      <div className="api-table-frame">
        <table className="api-table">
          <thead>
            <tr><th>{t("messagesApi.colStatus")}</th><th>{t("messagesApi.colCode")}</th><th>{t("messagesApi.colMeaning")}</th></tr>
          </thead>
          <tbody>
            {ERRORS.map(([status, code, key]) => (
              <tr key={`${status}-${code}`}><td>{status}</td><td><code>{code}</code></td><td>{t(key)}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
