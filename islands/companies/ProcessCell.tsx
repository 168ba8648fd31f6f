/**
 * The process that runs a company, in the companies table of a cluster (issue #35): its name,
 * and a choice of another live process to move the company to (`POST /companies/{id}/move`;
 * the company answers "being moved" for a second or two, which the pages wait out).
 */
import type { ChangeEvent, MouseEvent } from "react";
import type { ClusterNode } from "../../domain/cluster.ts";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";

/** Props of ProcessCell. */
export interface ProcessCellProps {
  companyId: number;
  companyName: string;
  node: string | null;
  nodes: ClusterNode[];
  /** Called once the move was asked (the table reads the companies again). */
  onMoved: () => void;
}

/** See the module doc. */
export function ProcessCell({ companyId, companyName, node, nodes, onMoved }: ProcessCellProps) {
  const others = nodes.filter((n) => n.name !== node);
  async function move(event: ChangeEvent<HTMLSelectElement>) {
    const target = event.target.value;
    event.target.value = "";
    if (!target) return;
    try {
      await api("POST", `/companies/${companyId}/move`, { node: target });
      showToast("success", t("companies.moving", { name: companyName, node: target }));
      onMoved();
    } catch (error) {
      toastError(error);
    }
  }
  // The row selects its company on click: choosing a process must not.
  const keep = (event: MouseEvent) => event.stopPropagation();
  return (
    <span className="company-process">
      <span>{node ?? t("companies.noProcess")}</span>
      {others.length > 0 && (
        <select aria-label={t("companies.moveTo", { name: companyName })} defaultValue="" onChange={move} onClick={keep}>
          <option value="">{t("companies.move")}</option>
          {others.map((n) => <option key={n.name} value={n.name}>{n.name}</option>)}
        </select>
      )}
    </span>
  );
}
