/** /tickets and /tickets/{uuid}: the live inbox (list pane and chat pane) inside the shell. */
import TicketsPage from "../islands/TicketsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import { ShellLayout } from "../server/pages/shell.tsx";

/** The Cloud API window bar and template dialog of the composer (islands/tickets/CloudWindowBar.tsx), and the schedule dialog of the ticket options. */
export const css = ["tickets_cloud", "schedule_dialog"];

/** The tickets page. */
export default function TicketsRoute({ ctx, params }: PageProps) {
  return (
    <ShellLayout ctx={ctx}>
      <Island ctx={ctx} name="TicketsPage" component={TicketsPage} props={{ ticketUuid: params.ticketId ?? null }} />
    </ShellLayout>
  );
}
