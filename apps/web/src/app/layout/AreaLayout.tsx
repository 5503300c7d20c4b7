import { useQuery } from "@tanstack/react-query";
import { Button, Result } from "antd";
import { Navigate, Outlet, useLocation, useMatches } from "react-router";
import { ApiError } from "@/api/client";
import { FullPageSpin } from "@/components/FullPageSpin";
import { userInfoQuery } from "@/features/account/account.api";
import { DeletionBanner } from "@/features/leaving/components/DeletionBanner";
import { type MenuArea, menuQuery } from "@/features/shell/shell.api";
import { ADMIN_BASE, canAccessPath } from "@/lib/access";
import { readBan } from "@/lib/ban";
import type { RouteHandle } from "@/lib/route-types";
import { getToken } from "@/lib/token";
import { AppShell } from "./AppShell";

/** The access rule of the deepest matched route (default: must be in the menu). */
function useRouteAccess() {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  return handle?.access ?? "menu";
}

export interface AreaLayoutProps {
  /** the customer console (menu from GET /user/rolemenu) or the admin area (GET /super/roleMenu) */
  area: MenuArea;
}

/**
 * A signed-in area: loads the menu and the user first (spinner meanwhile), then checks the route
 * against the menu (SPEC §2, §6) and renders the shell.
 */
export function AreaLayout({ area }: AreaLayoutProps) {
  const base = area === "admin" ? ADMIN_BASE : "";
  const { pathname } = useLocation();
  const access = useRouteAccess();
  const hasToken = getToken() !== null;
  const menu = useQuery({ ...menuQuery(area), enabled: hasToken });
  const user = useQuery({ ...userInfoQuery(), enabled: hasToken });

  // A ban learnt from a call (30005, lib/ban.ts) shows the ban and the appeal, not the sign-in.
  if (!hasToken) return <Navigate to={readBan() ? "/appeal" : "/login"} replace />;

  const error = menu.error ?? user.error;
  if (error) {
    if (error instanceof ApiError && error.isForbidden) return <Navigate to="/403" replace />;
    // 30001–30003: the client is already on its way to /login.
    if (error instanceof ApiError && error.isSessionInvalid) return <FullPageSpin />;
    return (
      <div className="standalone-page">
        <Result
          status="error"
          title="控制台加载失败"
          subTitle={error.message}
          extra={
            <Button
              type="primary"
              onClick={() => {
                void menu.refetch();
                void user.refetch();
              }}
            >
              重试
            </Button>
          }
        />
      </div>
    );
  }
  if (!menu.data || !user.data) return <FullPageSpin />;

  if (access === "menu" && !canAccessPath(menu.data, pathname, base)) return <Navigate to="/403" replace />;

  return (
    <AppShell menu={menu.data} base={base} user={user.data}>
      {/* a pending account deletion shows on every console page, with its cancel */}
      {area === "console" ? <DeletionBanner /> : null}
      <Outlet />
    </AppShell>
  );
}
