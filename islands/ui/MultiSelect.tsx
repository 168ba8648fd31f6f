/**
 * The kit's multiple choice for filters (queues, users, tags, statuses): a labelled button
 * that says what is chosen ("Todos" when nothing, the name when one, "N selecionados" when
 * more) and opens a menu of check items that stays open while ticking. Its accessible name is
 * the label and then that text ("Filas Todos"), so what a voice-control user reads on the
 * button is part of its name (WCAG 2.5.3).
 */
import { ChevronDown } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useId } from "react";
import { t } from "../lib/i18n.ts";
import type { Choice } from "./form.tsx";

/** Props of MultiSelect. */
export interface MultiSelectProps<T> {
  label: string;
  options: Choice<T>[];
  value: T[];
  onChange: (value: T[]) => void;
  /** Text when nothing is chosen. */
  emptyText: string;
  testId?: string;
  /** Keeps the label for screen readers only (a toolbar whose empty text names the filter). */
  hideLabel?: boolean;
}

/** A filter's multiple choice; see the module doc. */
export function MultiSelect<T>({ label, options, value, onChange, emptyText, testId, hideLabel }: MultiSelectProps<T>) {
  const id = useId();
  const chosen = options.filter((o) => value.includes(o.value));
  const summary = chosen.length === 0 ? emptyText : chosen.length === 1 ? chosen[0].label : t("multiSelect.count", { count: chosen.length });
  return (
    <div className="field multi-select">
      <label id={id} htmlFor={`${id}-trigger`} className={hideLabel ? "sr-only" : undefined}>{label}</label>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger id={`${id}-trigger`} className="input multi-select-trigger" aria-labelledby={`${id} ${id}-value`} data-testid={testId}>
          <span id={`${id}-value`} className="multi-select-value">{summary}</span>
          <ChevronDown size={16} aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu multi-select-menu" align="start">
            {options.map((o, i) => {
              const on = value.includes(o.value);
              return (
                <DropdownMenu.CheckboxItem
                  key={i}
                  className="menu-item"
                  checked={on}
                  onCheckedChange={(v) => onChange(v ? [...value, o.value] : value.filter((x) => x !== o.value))}
                  onSelect={(e) => e.preventDefault()}
                >
                  <span className="menu-check" aria-hidden="true">{on ? "✓" : ""}</span>
                  {o.label}
                </DropdownMenu.CheckboxItem>
              );
            })}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
