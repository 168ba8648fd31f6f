/** The top bar popovers' list of links: a bold title over a muted line (the bells share it). */

/** One entry of the list. */
export interface PopoverLink {
  key: string | number;
  href: string;
  title: string;
  detail: string;
  /** Tooltip of the link, when its target is not obvious from the text. */
  hint?: string;
}

/** The list; `testId` marks each item. */
export function PopoverLinks({ links, testId }: { links: PopoverLink[]; testId: string }) {
  return (
    <ul className="popover-list">
      {links.map((link) => (
        <li key={link.key} data-testid={testId}>
          <a href={link.href} title={link.hint}>
            <strong>{link.title}</strong>
            <span className="muted">{link.detail}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
