import { useQuery } from "@tanstack/react-query";
import { Navigate, Outlet } from "react-router";
import { PublicFrame } from "@/components/PublicFrame";
import { siteQuery } from "@/features/shell/shell.api";
import { getToken } from "@/lib/token";

/** /login, /reg, /reset inside the console's router; signed-in users go to the dashboard. */
export function PublicLayout() {
  const { data: site } = useQuery(siteQuery());
  if (getToken()) return <Navigate to="/dashboard" replace />;
  return (
    <PublicFrame site={site}>
      <Outlet />
    </PublicFrame>
  );
}
