/** placeholder */
export interface TicketsPageProps {
  ticketUuid: string | null;
}
export default function TicketsPage({ ticketUuid }: TicketsPageProps) {
  return <div>{ticketUuid}</div>;
}
