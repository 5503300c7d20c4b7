import type { SiteInfo } from "@burrow/contract";
import { createContext, type ReactNode, useContext } from "react";
import { SiteFooter } from "./SiteFooter";

const SiteContext = createContext<SiteInfo | undefined>(undefined);

/** The site's public info (brand, filing numbers) for the pages inside a {@link PublicFrame}. */
export const useSite = () => useContext(SiteContext);

/**
 * The public pages' frame (SPEC §1): a centred 900 px container and the filing footer. Shared by the
 * router's PublicLayout and /login's light host, which each fetch the site info their own way.
 */
export function PublicFrame({ site, children }: { site: SiteInfo | undefined; children: ReactNode }) {
  return (
    <SiteContext.Provider value={site}>
      <div className="public-page">
        <main className="public-container">{children}</main>
        <SiteFooter site={site} />
      </div>
    </SiteContext.Provider>
  );
}
