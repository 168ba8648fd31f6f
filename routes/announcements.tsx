/** /announcements: the platform announcements list of spec 002 §2.7 (super users) inside the shell. */
import AnnouncementsPage from "../islands/AnnouncementsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import { ShellLayout } from "../server/pages/shell.tsx";

/** The announcements page. */
export default function AnnouncementsRoute({ ctx }: PageProps) {
  return (
    <ShellLayout ctx={ctx}>
      <Island ctx={ctx} name="AnnouncementsPage" component={AnnouncementsPage} props={{}} />
    </ShellLayout>
  );
}
