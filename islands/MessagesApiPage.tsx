/**
 * The external messages API page (spec 001 §2.17): the documentation of
 * `POST /api/messages/send` and its two test forms, text and media. The plan-flag gate
 * (useExternalApi: the upgrade message, then / after 1 s) is the shell's routeGate, applied
 * before this island renders; the API refuses such a company too (403).
 */
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ApiDocs } from "./messages_api/ApiDocs.tsx";
import { MediaForm } from "./messages_api/MediaForm.tsx";
import { type QueueChoice, TextForm } from "./messages_api/TextForm.tsx";

/** Props of the MessagesApiPage island: the company's queues (GET /queue) for the queue choice. */
export type MessagesApiPageProps = AdminPageProps<QueueChoice[]>;

/** The API page. */
export default function MessagesApiPage({ initial, viewer: serverViewer }: MessagesApiPageProps) {
  useViewer(serverViewer);
  const queues = (initial ?? []).map((q) => ({ id: q.id, name: q.name }));
  return (
    <AdminPage title={t("messagesApi.title")} testId="messages-api-page">
      <div className="api-layout">
        <ApiDocs />
        <div className="api-forms">
          <TextForm queues={queues} />
          <MediaForm />
        </div>
      </div>
    </AdminPage>
  );
}
