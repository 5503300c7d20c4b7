import { useQuery } from "@tanstack/react-query";
import { Navigate, Outlet } from "react-router";
import { siteQuery } from "@/features/shell/shell.api";
import { getToken } from "@/lib/token";
import { SiteFooter } from "./SiteFooter";

/** /login, /reg, /reset: a centred 900 px container and the filing footer; signed-in users go to the dashboard. */
export function PublicLayout() {
  const { data: site } = useQuery(siteQuery());
  if (getToken()) return <Navigate to="/dashboard" replace />;
  return (
    <div className="public-page">
      <main className="public-container">
        <Outlet />
      </main>
      <SiteFooter site={site} />
    </div>
  );
}
