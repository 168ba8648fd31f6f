/**
 * /integrations (spec 002 §2.12): the grid of six partner cards, each with the partner's mark
 * (islands/integrations/PartnerLogo.tsx). The spec's cards have no
 * working link; ours each link to the screen where that integration is configured: Typebot
 * and n8n on a queue's Integrations tab (/queues), WhatsApp Cloud API and Evolution API as a
 * connection's engine (/connections), outbound webhooks (/webhooks) and the external API
 * (/messages-api). Server-rendered only: the page ships no JavaScript of its own.
 */
import { t } from "../islands/lib/i18n.ts";
import { type Partner, PartnerLogo } from "../islands/integrations/PartnerLogo.tsx";
import type { LocaleKey } from "../islands/locales/pt.ts";
import type { PageProps } from "../server/pages/island.tsx";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The engagement pages' stylesheet (static/pages/engage.css). */
export const css = "engage";

/** One card: the partner, what it does, and where it is configured. */
interface Card {
  id: Partner;
  name: string;
  text: LocaleKey;
  href: string;
  page: LocaleKey;
}

const CARDS: readonly Card[] = [
  { id: "typebot", name: "Typebot", text: "integrations.typebot", href: "/queues", page: "menu.queues" },
  { id: "n8n", name: "n8n", text: "integrations.n8n", href: "/queues", page: "menu.queues" },
  { id: "cloudapi", name: "WhatsApp Cloud API", text: "integrations.cloudapi", href: "/connections", page: "menu.connections" },
  { id: "evolution", name: "Evolution API", text: "integrations.evolution", href: "/connections", page: "menu.connections" },
  { id: "webhooks", name: "Webhooks", text: "integrations.webhooks", href: "/webhooks", page: "webhooks.title" },
  { id: "api", name: "API", text: "integrations.externalApi", href: "/messages-api", page: "messagesApi.title" },
];

/** The integrations page. */
export default function IntegrationsRoute({ ctx }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <section className="admin-page" aria-labelledby="integrations-title" data-testid="integrations-page">
        <header className="admin-header">
          <h1 id="integrations-title" className="admin-title">{t("integrations.title")}</h1>
        </header>
        <div className="admin-body">
          <p className="integration-intro">{t("integrations.intro")}</p>
          <ul className="integration-grid" role="list">
            {CARDS.map((card) => (
              <li key={card.id} className="card integration-card" data-testid={`integration-${card.id}`}>
                <h2><PartnerLogo partner={card.id} /> {card.name}</h2>
                <p>{t(card.text)}</p>
                <a className="btn" href={card.href}>{t("integrations.configureIn", { page: t(card.page) })}</a>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </AdminRoute>
  );
}
