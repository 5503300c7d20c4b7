import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { PublicFrame } from "@/components/PublicFrame";
import { siteQuery } from "@/features/shell/shell.api";

/** The public status pages' frame: no login, the site's footer, whether or not someone is signed in. */
export function StatusFrame({ children }: { children: ReactNode }) {
  const { data: site } = useQuery(siteQuery());
  return <PublicFrame site={site}>{children}</PublicFrame>;
}
