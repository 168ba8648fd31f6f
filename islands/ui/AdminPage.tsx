/**
 * The frame every admin page shares: a header with the title (and a count), the search box
 * and the page's actions, above the content (usually a DataTable). Also the viewer hook:
 * the page's props carry the user the server rendered for, so the first client render
 * matches the server's HTML; without it (no refresh cookie) the shell's session is used.
 */
import { type ReactNode, useId } from "react";
import { type SessionUser, useSession } from "../lib/session.ts";
import { SearchBox } from "./SearchBox.tsx";

/** Props every admin page island receives from its route. */
export interface AdminPageProps<D> {
  /** The first page of data read on the server, or null (then the island fetches it). */
  initial: D | null;
  /** The user the page was rendered for, or null when the server did not know them. */
  viewer: SessionUser | null;
}

/**
 * The user of the page: the shell's session once loaded (it follows saves such as a setting
 * change), until then the one the server rendered for, so the first render matches the HTML.
 */
export function useViewer(viewer: SessionUser | null): SessionUser | null {
  const session = useSession();
  return session.status === "ready" ? session.user : viewer;
}

/** Props of AdminPage. */
export interface AdminPageFrameProps {
  title: string;
  /** Shown after the title, e.g. the contacts' total. */
  count?: number;
  search?: { value: string; onChange: (value: string) => void };
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** 2 when the frame sits inside another page (a settings tab) whose title is the h1. */
  headingLevel?: 1 | 2;
}

/** Header (title, count, search, actions) and content. */
export function AdminPage({ title, count, search, actions, children, testId, headingLevel = 1 }: AdminPageFrameProps) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const id = useId();
  return (
    <section className="admin-page" aria-labelledby={id} data-testid={testId}>
      <header className="admin-header">
        <Heading id={id} className="admin-title">
          {title}
          {count !== undefined && <span className="admin-count"> ({count})</span>}
        </Heading>
        <div className="admin-tools">
          {search && (
            <SearchBox value={search.value} onChange={search.onChange} />
          )}
          {actions}
        </div>
      </header>
      <div className="admin-body">{children}</div>
    </section>
  );
}

/** An icon button with its label for screen readers and as a tooltip. */
export function IconButton(
  { label, onClick, children, disabled, danger }: { label: string; onClick: () => void; children: ReactNode; disabled?: boolean; danger?: boolean },
) {
  return (
    <button type="button" className={danger ? "icon-btn icon-danger" : "icon-btn"} aria-label={label} title={label} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}
