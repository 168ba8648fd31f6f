/** The processes of a cluster (issue #35), read once when `wanted` (a companies table of a cluster). */
import { useEffect, useState } from "react";
import type { ClusterNode } from "../../domain/cluster.ts";
import { get } from "../lib/api.ts";

/** See the module doc; empty until read, and for a process alone. */
export function useClusterNodes(wanted: boolean): ClusterNode[] {
  const [nodes, setNodes] = useState<ClusterNode[]>([]);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    get<{ nodes: ClusterNode[] }>("/cluster/nodes").then((r) => live && setNodes(r.nodes), () => {});
    return () => {
      live = false;
    };
  }, [wanted]);
  return nodes;
}
